// An empty translation unit: gqservices_i18n carries only its resource (see CMakeLists.txt).
