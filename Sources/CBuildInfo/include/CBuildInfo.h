// What the build knew and no source file can: the commit it was built from
// and the Swift version that compiled it (RecipeKit's modules with it).
// The Makefile writes them into build-info.h (never committed) before it
// builds; a build without it (plain `swift build`) has empty strings.
#ifndef C_BUILD_INFO_H
#define C_BUILD_INFO_H

/// `git rev-parse --short=12 HEAD`, with `-dirty` when tracked files had
/// changes; "" when unknown.
const char *_Nonnull CBuildInfo_commit(void);

/// The compiler's version number (`6.3.1`); "" when unknown.
const char *_Nonnull CBuildInfo_swift_version(void);

#endif
