# kpsim_library(), kpsim_test(): one helper each (house style G21).

function(kpsim_target_options target)
  target_compile_features(${target} PUBLIC cxx_std_20)
  target_include_directories(${target} PUBLIC ${PROJECT_SOURCE_DIR}/include PRIVATE ${PROJECT_SOURCE_DIR}/src)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow)
  # GCC 12 reports -Wrestrict inside libstdc++'s char_traits for ordinary string concatenation
  # at -O3 (GCC bug 105329); it is a false positive, so it must not break -Werror builds.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(${target} PRIVATE -Wno-restrict)
  endif()
  if(KPSIM_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  if(KPSIM_SANITIZE)
    target_compile_options(${target} PRIVATE -fsanitize=address,undefined -fno-omit-frame-pointer
                           -fno-sanitize-recover=undefined)
    target_link_options(${target} PRIVATE -fsanitize=address,undefined)
  endif()
endfunction()

# kpsim_library(<module> DEPS ... PRIVATE_DEPS ...): src/<module>/**/*.cc as kpsim_<module>.
function(kpsim_library module)
  cmake_parse_arguments(ARG "" "" "DEPS;PRIVATE_DEPS" ${ARGN})
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/${module}/*.cc)
  add_library(kpsim_${module} STATIC ${sources})
  kpsim_target_options(kpsim_${module})
  target_link_libraries(kpsim_${module} PUBLIC ${ARG_DEPS} fmt::fmt PRIVATE ${ARG_PRIVATE_DEPS})
endfunction()

# kpsim_test(<module> DEPS ...): tests/<module>/*_test.cc as one gtest binary.
function(kpsim_test module)
  cmake_parse_arguments(ARG "" "" "DEPS" ${ARGN})
  file(GLOB sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/${module}/*_test.cc)
  if(NOT sources)
    return()
  endif()
  add_executable(kpsim_${module}_test ${sources})
  kpsim_target_options(kpsim_${module}_test)
  target_include_directories(kpsim_${module}_test PRIVATE ${PROJECT_SOURCE_DIR}/tests)
  target_link_libraries(kpsim_${module}_test PRIVATE ${ARG_DEPS} GTest::gtest GTest::gmock GTest::gtest_main)
  target_compile_definitions(kpsim_${module}_test PRIVATE KPSIM_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  gtest_discover_tests(kpsim_${module}_test DISCOVERY_MODE PRE_TEST
                       WORKING_DIRECTORY ${PROJECT_SOURCE_DIR} PROPERTIES LABELS ${module})
endfunction()
