// The translation unit that builds a precompiled header (cmake/PrecompiledHeaders.cmake).
