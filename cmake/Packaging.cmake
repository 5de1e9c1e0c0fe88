# What `cmake --install` puts where, and the packages CPack makes of it:
#   cpack -G DEB   gpuquota-console_<version>_amd64.deb (dependencies from dpkg-shlibdeps)
#   cpack -G TGZ   gpuquota-console-<version>-Linux.tar.gz (the same tree, relocatable prefix)
#   cpack -G External  the AppImage (packaging/linux/appimage-cpack.cmake)
# scripts/package.sh runs all of them into dist/ and checks each.
include(GNUInstallDirs)

set(GQ_APP_ID "io.gpuquota.Console")
install(FILES "${PROJECT_SOURCE_DIR}/resources/linux/${GQ_APP_ID}.desktop"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/applications")
install(FILES "${PROJECT_SOURCE_DIR}/resources/icons/${GQ_APP_ID}.svg"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps")
install(FILES "${PROJECT_SOURCE_DIR}/resources/linux/${GQ_APP_ID}.metainfo.xml"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/metainfo")
# --demo starts the test cluster and the GPU exporter stand-in from the console's own
# folder (and the controller below).
if(TARGET gpuquota-testcluster)
  install(TARGETS gpuquota-testcluster RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
endif()
if(TARGET gq-test-exporter)
  install(TARGETS gq-test-exporter RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
endif()
# The controller (app/controller) and its systemd unit, once that target exists.
if(TARGET gpuquota-controller)
  install(TARGETS gpuquota-controller RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
  install(FILES "${PROJECT_SOURCE_DIR}/packaging/linux/gpuquota-controller.service"
          DESTINATION "lib/systemd/system")
endif()
# Our translations are compiled into the binaries (qt_add_translations, :/i18n); Qt's
# own catalogues come from qt6-translations-l10n (a dependency below).

# Debian policy files: copyright and a compressed changelog in the package's doc dir
# (changelog.gz: a version without a Debian revision makes this a native package).
set(GQ_DOC_DIR "${CMAKE_INSTALL_DATADIR}/doc/gpuquota-console")
string(TIMESTAMP GQ_CHANGELOG_DATE "%a, %d %b %Y %H:%M:%S +0000" UTC)
file(WRITE "${PROJECT_BINARY_DIR}/packaging/changelog"
     "gpuquota-console (${PROJECT_VERSION}) unstable; urgency=medium\n\n"
     "  * Release ${PROJECT_VERSION}.\n\n"
     " -- GPU Quota Console developers <dev@gpuquota.io>  ${GQ_CHANGELOG_DATE}\n")
execute_process(COMMAND gzip -9nf "${PROJECT_BINARY_DIR}/packaging/changelog")
install(FILES "${PROJECT_BINARY_DIR}/packaging/changelog.gz" DESTINATION "${GQ_DOC_DIR}"
        RENAME changelog.gz)
install(FILES "${PROJECT_SOURCE_DIR}/packaging/linux/debian/copyright" DESTINATION "${GQ_DOC_DIR}")
install(FILES "${PROJECT_SOURCE_DIR}/packaging/controller.example.yaml" DESTINATION "${GQ_DOC_DIR}/examples")

# Manual pages, one per installed program (Debian policy 12.1): written in roff in
# packaging/linux/man/NAME.1.in, the version filled in, compressed with gzip -9n (no
# name or time stamp inside, so the package stays reproducible). kubectl-gpuquota's
# page is a link to gpuquota's, as its binary is.
foreach(program IN ITEMS gpuquota gpuquota-console gpuquota-controller gpuquota-testcluster
                        gq-test-exporter)
  if(NOT TARGET ${program})
    continue()
  endif()
  set(gq_man "${PROJECT_BINARY_DIR}/packaging/man/${program}.1")
  configure_file("${PROJECT_SOURCE_DIR}/packaging/linux/man/${program}.1.in" "${gq_man}" @ONLY)
  execute_process(COMMAND gzip -9nc "${gq_man}" OUTPUT_FILE "${gq_man}.gz" RESULT_VARIABLE gq_gzip)
  if(NOT gq_gzip EQUAL 0)
    message(FATAL_ERROR "gzip ${gq_man}: ${gq_gzip}")
  endif()
  install(FILES "${gq_man}.gz" DESTINATION "${CMAKE_INSTALL_MANDIR}/man1")
endforeach()
if(TARGET gpuquota)
  install(CODE "execute_process(COMMAND ${CMAKE_COMMAND} -E create_symlink gpuquota.1.gz \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_MANDIR}/man1/kubectl-gpuquota.1.gz\")")
endif()

set(CPACK_PACKAGE_NAME "gpuquota-console")
set(CPACK_PACKAGE_VENDOR "GPU Quota Console developers")
set(CPACK_PACKAGE_CONTACT "GPU Quota Console developers <dev@gpuquota.io>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "GPU quota console for shared Kubernetes GPU clusters")
set(CPACK_PACKAGE_HOMEPAGE_URL "https://gpuquota.io/")
set(CPACK_PACKAGE_FILE_NAME "gpuquota-console-${PROJECT_VERSION}-Linux")
set(CPACK_STRIP_FILES ON)
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
    GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
set(CPACK_GENERATOR "DEB;TGZ")
set(CPACK_THREADS 2)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "admin")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Plugins are loaded at run time, so dpkg-shlibdeps cannot see them: the platforms
# (xcb, offscreen in libqt6gui6; Wayland), the SQL drivers, SVG icons and Qt's own
# translations.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libqt6sql6-sqlite, libqt6svg6")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libqt6sql6-psql, qt6-wayland, qt6-translations-l10n, kubectl")
# The synopsis line is CPACK_PACKAGE_DESCRIPTION_SUMMARY; this is the body under it,
# ONE string (set() with several quoted arguments would make a list and put ';' into
# the control file). CPackDeb indents each line by a space and turns an empty line
# into " ." (a paragraph break), as Debian policy 5.6.13 asks; lines stay under 80.
string(CONCAT CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "A desktop console and a command line (gpuquota, also kubectl gpuquota) for\n"
    "the GPU quotas of shared Kubernetes clusters: namespace ResourceQuotas and\n"
    "LimitRanges, GPU-hour budgets per namespace or user, temporary boosts with an\n"
    "audit trail, chargeback reports and live GPU utilization from Prometheus or\n"
    "dcgm-exporter.\n"
    "\n"
    "The package also holds gpuquota-controller, the in-cluster or host service\n"
    "that records GPU-hours, enforces budgets and serves the self-service page\n"
    "(with a systemd unit), and gpuquota-testcluster, a local Kubernetes API\n"
    "stand-in behind the console's --demo mode.")
# Only DEB installs to /usr; the tarball unpacks to a relocatable bin/ share/ tree.
set(CPACK_PROJECT_CONFIG_FILE "${PROJECT_SOURCE_DIR}/packaging/linux/cpack-options.cmake")

# `cpack -G External` hands the installed tree to the AppImage recipe.
set(CPACK_EXTERNAL_PACKAGE_SCRIPT "${PROJECT_SOURCE_DIR}/packaging/linux/appimage-cpack.cmake")
set(CPACK_EXTERNAL_ENABLE_STAGING ON)
set(CPACK_GQ_SOURCE_DIR "${PROJECT_SOURCE_DIR}")
set(CPACK_GQ_APPIMAGE_RUNTIME "${PROJECT_BINARY_DIR}/packaging/linux/gq-appimage-runtime")

include(CPack)
