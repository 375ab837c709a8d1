# What `cmake --install build --prefix P` puts under P:
#   include/dtypeflow/...            the public headers (the list below), with their src/ paths
#   lib/libdtypeflow_core.{a,so}     the core, static and shared
#   lib/cmake/dtypeflow/             find_package(dtypeflow): dtypeflow::core (shared), dtypeflow::core_static
#   lib/pkgconfig/dtypeflow.pc       pkg-config dtypeflow
#   bin/dtypeflow                    the CLI (and dtypeflow-pt-import when built with libtorch)
# docs/api.md describes the API these headers make up.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# The public headers: what an embedding program needs to parse a program,
# refine it, read the results and add rules (from files or code). Every
# other header under src/ is internal and stays in the source tree.
set(DTF_PUBLIC_HEADERS
  dtypeflow.h
  dtype/torch_version.h dtype/torch_versions.def dtype/version_facts.def dtype/dtypes.def dtype/dtype.h dtype/lattice.h dtype/promotion.h dtype/dtype_system.h
  shape/sym_expr.h shape/dim.h shape/unbacked.h
  schema/schema.h
  ops/rule.h ops/cpu_capability.h ops/cpu_kinds.def ops/cpu_kernels.h ops/op_facts.h ops/registry.h ops/vocabulary.h ops/semantics.h ops/infer.h ops/notation.h
  ops/rule_spec.h ops/custom_rules.h ops/autocast.h
  graph/type_expr.h graph/small_ids.h graph/graph.h
  refine/refine.h
  frontends/text/ir_lexer.h frontends/text/ir_parser.h frontends/text/ir_printer.h
  frontends/pt2/pt2_reader.h)

# A public header that includes an internal one would break every consumer:
# refuse it here, at configure time.
foreach(h ${DTF_PUBLIC_HEADERS})
  file(STRINGS ${CMAKE_SOURCE_DIR}/src/${h} includes REGEX "^#include \"")
  foreach(line ${includes})
    string(REGEX REPLACE "^#include \"([^\"]+)\".*" "\\1" inc "${line}")
    if(NOT inc IN_LIST DTF_PUBLIC_HEADERS)
      message(FATAL_ERROR "public header src/${h} includes ${inc}, which is not public (cmake/install.cmake)")
    endif()
  endforeach()
  get_filename_component(dir ${h} DIRECTORY)
  install(FILES ${CMAKE_SOURCE_DIR}/src/${h} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/dtypeflow/${dir})
endforeach()

install(TARGETS dtypeflow_core dtypeflow_core_shared EXPORT dtypeflowTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(EXPORT dtypeflowTargets NAMESPACE dtypeflow:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/dtypeflow)
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/dtypeflowConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/dtypeflowConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/dtypeflow)
# 0.x: a minor version may change the API (docs/api.md says what is stable).
write_basic_package_version_file(${CMAKE_BINARY_DIR}/dtypeflowConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/dtypeflowConfig.cmake ${CMAKE_BINARY_DIR}/dtypeflowConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/dtypeflow)

file(RELATIVE_PATH DTF_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
configure_file(${CMAKE_SOURCE_DIR}/cmake/dtypeflow.pc.in ${CMAKE_BINARY_DIR}/dtypeflow.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/dtypeflow.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

install(TARGETS dtypeflow RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET dtypeflow-pt-import)
  install(TARGETS dtypeflow-pt-import RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
