# One INTERFACE target that every project target links: language standard,
# warnings, and the Qt strictness defines. Change policy here, nowhere else.
add_library(gq_common INTERFACE)
target_compile_features(gq_common INTERFACE cxx_std_20)
# Two include roots for every target: the repository, so an include names its header's
# path from there ("core/usage/budget.h", "services/quotas/quotawriter.h"; README
# "Layout", checked by scripts/qualify-includes.py in tst_layers), and the generated
# headers (gq_version.h).
target_include_directories(gq_common INTERFACE "${PROJECT_SOURCE_DIR}" "${PROJECT_BINARY_DIR}/generated")
set(CMAKE_CXX_EXTENSIONS OFF)

option(GQ_WERROR "Treat warnings as errors (CI)" OFF)

target_compile_options(gq_common INTERFACE
  -Wall -Wextra -Wpedantic -Wnon-virtual-dtor -Wcast-align -Woverloaded-virtual
  $<$<BOOL:${GQ_WERROR}>:-Werror>
  # GCC 12 reports false positives for std::optional/std::variant at -O2
  # (GCC bug 105562 and friends); keep them visible but not fatal.
  $<$<CXX_COMPILER_ID:GNU>:-Wno-error=maybe-uninitialized>)

target_compile_definitions(gq_common INTERFACE
  QT_NO_CAST_TO_ASCII
  QT_NO_CAST_FROM_BYTEARRAY
  QT_NO_URL_CAST_FROM_STRING
  QT_NO_NARROWING_CONVERSIONS_IN_CONNECT
  QT_NO_FOREACH
  QT_USE_QSTRINGBUILDER
  QT_STRICT_ITERATORS
  QT_DISABLE_DEPRECATED_BEFORE=0x060400)

option(GQ_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
if(GQ_SANITIZE)
  target_compile_options(gq_common INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  target_link_options(gq_common INTERFACE -fsanitize=address,undefined)
endif()

# ccache pays off when a build tree is rebuilt from scratch with the same flags (switching
# branches, a wiped build dir). A first build into a cold cache only pays: with the
# precompiled headers each miss costs ~1 s of CPU more (ccache hashes the 160 MB header),
# about +25 %. The ci preset builds once into a fresh tree, so it turns it off.
option(GQ_CCACHE "Compile through ccache when it is installed" ON)
find_program(CCACHE_PROGRAM ccache)
if(CCACHE_PROGRAM AND GQ_CCACHE)
  # Without this sloppiness ccache does not cache a compile that uses a precompiled header.
  set(CMAKE_CXX_COMPILER_LAUNCHER
    env CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime "${CCACHE_PROGRAM}")
endif()

# mold links the ~150 programs (most of them test suites) in about a quarter of GNU ld's time.
option(GQ_MOLD "Link with mold when it is installed (GCC)" ON)
find_program(MOLD_PROGRAM mold)
if(MOLD_PROGRAM AND GQ_MOLD AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  add_link_options(-fuse-ld=mold)
endif()
