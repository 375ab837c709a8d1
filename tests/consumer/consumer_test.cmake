# Included by tests/CMakeLists.txt: the installed package, used from outside
# the tree (tests/consumer/run_consumer.cmake).
add_test(NAME consumer.installed_package
         COMMAND ${CMAKE_COMMAND} -DBUILD_DIR=${CMAKE_BINARY_DIR} -DSOURCE=${CMAKE_CURRENT_SOURCE_DIR}/consumer
                 -DWORK=${CMAKE_CURRENT_BINARY_DIR}/consumer -DLAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER}
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/consumer/run_consumer.cmake)
set_tests_properties(consumer.installed_package PROPERTIES TIMEOUT 900)
