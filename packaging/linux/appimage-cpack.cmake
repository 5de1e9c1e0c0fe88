# `cpack -G External` runs this with the staged install tree (CPACK_TEMPORARY_DIRECTORY,
# prefix /usr from cpack-options.cmake) and hands it to the AppImage recipe.
set(gq_usr "${CPACK_TEMPORARY_DIRECTORY}/usr")
set(gq_out "${CPACK_PACKAGE_DIRECTORY}/gpuquota-console-${CPACK_PACKAGE_VERSION}-x86_64.AppImage")
if(NOT EXISTS "${CPACK_GQ_APPIMAGE_RUNTIME}")
  message(FATAL_ERROR "no AppImage runtime at ${CPACK_GQ_APPIMAGE_RUNTIME}: build the gq-appimage-runtime target")
endif()
execute_process(
  COMMAND "${CPACK_GQ_SOURCE_DIR}/packaging/linux/build-appimage.sh"
    --usr "${gq_usr}" --runtime "${CPACK_GQ_APPIMAGE_RUNTIME}" --output "${gq_out}"
  RESULT_VARIABLE gq_rc)
if(NOT gq_rc EQUAL 0)
  message(FATAL_ERROR "build-appimage.sh failed (${gq_rc})")
endif()
set(CPACK_EXTERNAL_BUILT_PACKAGES "${gq_out}")
