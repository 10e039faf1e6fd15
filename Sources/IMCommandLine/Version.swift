import CBuildInfo

/// The release of imsh, imserver and imchaos: the number packages and changelogs carry.
public let imshRelease = "0.1.0"

/// The commit the binary was built from, or nil when the build was not told (a plain `swift build`).
///
/// scripts/install and scripts/package-deb pass it as `-Xcc -DIMSH_COMMIT=HASH`; the sources
/// cannot know it themselves, and a generated source file would dirty the checkout.
public let imshCommit: String? = {
    let commit = String(cString: imsh_build_commit())
    return commit.isEmpty ? nil : commit
}()

/// What `--version` prints after the program's name: the release and the commit.
public let imshVersion = "\(imshRelease) (commit \(imshCommit ?? "unknown: built without scripts/install"))"
