# ctest consumer.installed_package: install dtypeflow into a fresh prefix,
# then build tests/consumer against it twice, as another project would:
# with find_package(dtypeflow) (the shared and the static library) and with
# pkg-config; run each. Parameters: BUILD_DIR (dtypeflow's build), SOURCE
# (tests/consumer), WORK (scratch directory), LAUNCHER (compiler launcher, optional).
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "failed (${rc}): ${cmd}\n${out}\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK})
set(prefix ${WORK}/prefix)
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})

# What was installed: the public headers and no internal one, both libraries, the package files, the CLI.
foreach(f include/dtypeflow/dtypeflow.h include/dtypeflow/ops/custom_rules.h include/dtypeflow/refine/refine.h
          include/dtypeflow/frontends/pt2/pt2_reader.h
          include/dtypeflow/dtype/dtypes.def lib/libdtypeflow_core.a lib/libdtypeflow_core.so
          lib/cmake/dtypeflow/dtypeflowConfig.cmake lib/cmake/dtypeflow/dtypeflowTargets.cmake
          lib/pkgconfig/dtypeflow.pc bin/dtypeflow)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "cmake --install did not install ${f}")
  endif()
endforeach()
foreach(f include/dtypeflow/refine/solver.h include/dtypeflow/ops/families.h include/dtypeflow/ops/unit_dims.h)
  if(EXISTS ${prefix}/${f})
    message(FATAL_ERROR "internal header ${f} was installed")
  endif()
endforeach()
run(${prefix}/bin/dtypeflow infer-op --rules ${SOURCE}/vendor_ops.toml vendor::pack x=bool:r2)

# find_package
set(launcher "")
if(LAUNCHER)
  set(launcher -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
endif()
run(${CMAKE_COMMAND} -S ${SOURCE} -B ${WORK}/build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${prefix}
    ${launcher})
run(${CMAKE_COMMAND} --build ${WORK}/build)
run(${WORK}/build/consumer ${SOURCE}/vendor_ops.toml)
message(STATUS "find_package, shared: ${out}")
run(${WORK}/build/consumer_static ${SOURCE}/vendor_ops.toml)

# pkg-config
set(ENV{PKG_CONFIG_PATH} ${prefix}/lib/pkgconfig)
run(pkg-config --cflags --libs dtypeflow)
separate_arguments(flags UNIX_COMMAND "${out}")
run(${LAUNCHER} c++ -std=c++20 ${SOURCE}/main.cpp ${flags} -Wl,-rpath,${prefix}/lib -o ${WORK}/consumer_pkg_config)
run(${WORK}/consumer_pkg_config ${SOURCE}/vendor_ops.toml)
message(STATUS "pkg-config: ${out}")
