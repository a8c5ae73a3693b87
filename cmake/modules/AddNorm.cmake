#===- AddNorm.cmake - thin wrappers for norm-mlir targets ----------------===#
#
# Every project library goes through add_norm_library so that (1) it links the
# shared libMLIR (target `MLIR`) and nothing static from MLIR, and (2) it is
# recorded for the CMake package export (NormMLIRTargets.cmake).
#
#===----------------------------------------------------------------------===#
include_guard(GLOBAL)

# add_norm_library(name sources... [DEPENDS ...] [LINK_LIBS ...])
# A static library whose only MLIR dependency is the shared libMLIR. The
# LINK_COMPONENTS Support that add_mlir_library appends maps to libLLVM.so
# because the package is configured with LLVM_LINK_LLVM_DYLIB=ON.
function(add_norm_library name)
  cmake_parse_arguments(ARG "" "" "DEPENDS;LINK_LIBS" ${ARGN})
  add_mlir_library(${name}
    ${ARG_UNPARSED_ARGUMENTS}
    DISABLE_INSTALL
    DEPENDS ${ARG_DEPENDS}
    LINK_LIBS PUBLIC MLIR ${ARG_LINK_LIBS})
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
    $<INSTALL_INTERFACE:include>)
  install(TARGETS ${name} EXPORT NormMLIRTargets
    ARCHIVE DESTINATION lib LIBRARY DESTINATION lib)
  set_property(GLOBAL APPEND PROPERTY NORM_EXPORTED_TARGETS ${name})
  set_property(GLOBAL APPEND PROPERTY NORM_ALL_TARGETS ${name})
  norm_use_precompiled_headers(${name})
endfunction()

# Compiles the sources of add_mlir_library target `name` with the shared
# precompiled header of the upstream MLIR headers (lib/PrecompiledHeaders):
# parsing them was about half of each source's compile time, and CI builds
# the project twice (release and sanitizers). The sources compile in the
# object library obj.${name} where add_mlir_library makes one.
function(norm_use_precompiled_headers name)
  if(NOT NORM_PRECOMPILED_HEADERS)
    return()
  endif()
  set(compiled ${name})
  if(TARGET obj.${name})
    set(compiled obj.${name})
  endif()
  target_precompile_headers(${compiled} REUSE_FROM obj.NormPrecompiledHeaders)
endfunction()

# Records an executable or module for the link-mode check.
function(norm_track_target name)
  set_property(GLOBAL APPEND PROPERTY NORM_ALL_TARGETS ${name})
endfunction()

# Fails the configure if any project target would link a static MLIR archive
# (MLIRxxx) or a static LLVM component (LLVMxxx): mixing those with libMLIR.so /
# libLLVM.so registers cl::opts twice or silently splits the option registry.
# (lib/CAPI links upstream's C-wrapper archives MLIRCAPI* by file into
# libNormMLIR-C.so; they hold no C++ state: see docs/design.md.)
function(norm_check_link_mode)
  get_property(targets GLOBAL PROPERTY NORM_ALL_TARGETS)
  foreach(t ${targets})
    get_target_property(libs ${t} LINK_LIBRARIES)
    if(NOT libs)
      continue()
    endif()
    foreach(lib ${libs})
      if(lib MATCHES "^MLIR[A-Z]" OR (lib MATCHES "^LLVM[A-Z]"))
        message(FATAL_ERROR
          "norm-mlir links only the shared libMLIR/libLLVM, but target '${t}' "
          "links the static library '${lib}'. Use `MLIR` (and `LLVM`) instead.")
      endif()
    endforeach()
  endforeach()
endfunction()
