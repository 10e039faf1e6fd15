// What the build knows that the sources do not: the commit they came from.
// scripts/install passes -Xcc -DIMSH_COMMIT=<hash>; a plain `swift build` leaves it undefined.
#ifndef IMSH_BUILD_INFO_H
#define IMSH_BUILD_INFO_H

// Stringized here so that the command line carries no quotes through SwiftPM's layers.
#define IMSH_STRINGIZE_(x) #x
#define IMSH_STRINGIZE(x) IMSH_STRINGIZE_(x)

static inline const char *imsh_build_commit(void) {
#ifdef IMSH_COMMIT
    return IMSH_STRINGIZE(IMSH_COMMIT);
#else
    return "";
#endif
}

#endif
