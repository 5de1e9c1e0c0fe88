# Precompiled headers: the Qt and standard headers nearly every translation unit
# parses are compiled once per kind and reused by every target of that kind, which
# takes about a third off a cold build on two cores (CI builds from nothing).
#
#   gq_precompile(TARGET [WIDGETS] [TEST])
#
# WIDGETS adds the Qt Widgets headers (widget targets only, so a core library never
# sees a widget header). TEST builds test code without optimisation: tests are
# compiled far more often than they run, and the code they test keeps its flags.
# -Winvalid-pch makes a header that cannot be used a warning, an error under
# GQ_WERROR, so a silently ignored precompiled header cannot slow CI unnoticed.
option(GQ_PCH "Use precompiled headers" ON)

set(GQ_PCH_DIR "${CMAKE_CURRENT_LIST_DIR}/pch")

function(_gq_pch_provider name header test)
  if(TARGET ${name})
    return()
  endif()
  add_library(${name} OBJECT "${GQ_PCH_DIR}/pch.cpp")
  target_link_libraries(${name} PRIVATE gq_common Qt6::Core)
  if(header MATCHES "widgets")
    target_link_libraries(${name} PRIVATE Qt6::Widgets)
  endif()
  if(test)
    target_compile_options(${name} PRIVATE -O0)
  endif()
  target_precompile_headers(${name} PRIVATE "${GQ_PCH_DIR}/${header}")
endfunction()

function(gq_precompile target)
  cmake_parse_arguments(P "WIDGETS;TEST" "" "" ${ARGN})
  if(P_TEST)
    target_compile_options(${target} PRIVATE -O0)
  endif()
  if(NOT GQ_PCH OR NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    return()
  endif()
  set(header qtcore_pch.h)
  set(provider gq_pch_core)
  if(P_WIDGETS)
    set(header qtwidgets_pch.h)
    set(provider gq_pch_widgets)
  endif()
  if(P_TEST)
    string(APPEND provider _test)
  endif()
  _gq_pch_provider(${provider} ${header} "${P_TEST}")
  target_precompile_headers(${target} REUSE_FROM ${provider})
  target_compile_options(${target} PRIVATE -Winvalid-pch)
  if(P_TEST)
    # A suite's moc file is nearly always empty (its moc output is included by the
    # .cpp), yet loading the header would cost it a second: 0.06 s instead of 1.2 s,
    # times some 140 suites.
    set_source_files_properties("${CMAKE_CURRENT_BINARY_DIR}/${target}_autogen/mocs_compilation.cpp"
                                PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
  endif()
endfunction()
