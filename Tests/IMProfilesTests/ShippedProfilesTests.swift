import IMProfiles
import IMProtocol
import Testing

/// The repository's `profiles/dev.json` and `profiles/prod.json` work as shipped.
struct ShippedProfilesTests {
    /// `profiles/` at the repository root, found from this file's path.
    static var directory: String {
        let components = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        return (components.dropLast(3) + ["profiles"]).joined(separator: "/")
    }

    @Test func loadWithoutDiagnostics() {
        let set = ProfileLoader.load(directory: Self.directory)
        #expect(set.diagnostics.map(\.description) == [])
        #expect(set.profiles.map(\.name) == ["dev", "prod"])
        #expect(set.profiles.map(\.appKey) == ["imsh-dev", "imsh-prod"])
    }

    @Test func everyAccountGetsItsTokenFromTheEmbeddedServer() {
        for profile in ProfileLoader.load(directory: Self.directory).profiles {
            #expect(profile.server == .embedded && profile.hasServerAPI, "\(profile.name)")
            #expect(!profile.accounts.isEmpty, "\(profile.name)")
            for account in profile.accounts {
                #expect(account.tokenSource == .serverAPI, "\(account.reference)")
                #expect(account.userID.map(IMIdentifier.isValidUserID) == true, "\(account.reference)")
            }
        }
    }

    @Test func devHasTwoMobileDevicesOfOneUser() throws {
        let dev = try #require(ProfileLoader.load(directory: Self.directory).profile(named: "dev"))
        let mobiles = Dictionary(grouping: dev.accounts.filter { $0.platform == .mobile }, by: { $0.userID ?? "" })
        let pair = try #require(mobiles.values.first { $0.count >= 2 })
        #expect(Set(pair.map(\.deviceID)).count == pair.count)
        #expect(dev.account(named: "alice-phone")?.userID == "alice")
        #expect(dev.account(named: "alice-tablet")?.platform == .mobile)
        #expect(dev.account(named: "alice-laptop")?.platform == .pc)
    }

    @Test func accountDeviceIDsAreUniqueAcrossProfiles() {
        let accounts = ProfileLoader.load(directory: Self.directory).accounts
        #expect(Set(accounts.map(\.deviceID)).count == accounts.count)
    }
}
