# git_revision.cmake - run by the build (cmake -P, target ns_git_revision in
# CMakeLists.txt) before every build of nimsieve_core: writes OUT, the
# header of NS_GIT_REVISION, the revision every file and figure records.
# GIVEN (-DNS_GIT_REVISION=... at configure time, e.g. for a tree from git
# archive) wins; else the 12-digit HEAD of the source tree's own repository
# (not of one above it), with "-dirty" when tracked files differ from it;
# else "unknown". OUT is rewritten only when its text changes, so that a
# build recompiles the few files that include it only after a commit.
cmake_minimum_required(VERSION 3.25)
if(GIVEN)
  set(rev "${GIVEN}")
else()
  set(rev "unknown")
  execute_process(COMMAND git rev-parse --show-toplevel WORKING_DIRECTORY "${SRC}"
    OUTPUT_VARIABLE top OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
  if(rc EQUAL 0 AND top)
    file(REAL_PATH "${top}" top)
    file(REAL_PATH "${SRC}" src)
  endif()
  if(rc EQUAL 0 AND top STREQUAL src)
    execute_process(COMMAND git rev-parse --short=12 HEAD WORKING_DIRECTORY "${SRC}"
      OUTPUT_VARIABLE head OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
    if(rc EQUAL 0 AND head)
      set(rev "${head}")
      execute_process(COMMAND git status --porcelain --untracked-files=no WORKING_DIRECTORY "${SRC}"
        OUTPUT_VARIABLE changed ERROR_QUIET RESULT_VARIABLE rc)
      if(NOT rc EQUAL 0 OR changed)
        string(APPEND rev "-dirty")
      endif()
    endif()
  endif()
endif()
file(CONFIGURE OUTPUT "${OUT}" CONTENT
  "/* ns_git.h - written at every build by tools/cmake/git_revision.cmake */\n#ifndef NS_GIT_H\n#define NS_GIT_H\n#define NS_GIT_REVISION \"@rev@\"\n#endif\n" @ONLY)
