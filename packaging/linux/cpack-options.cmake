# Per-generator CPack settings (CPACK_PROJECT_CONFIG_FILE): run by cpack for each
# generator after the general ones in cmake/Packaging.cmake.
if(CPACK_GENERATOR STREQUAL "DEB")
  set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
elseif(CPACK_GENERATOR STREQUAL "External")
  # The AppImage's AppDir is a /usr tree too (AppDir/usr/bin/...).
  set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
endif()
