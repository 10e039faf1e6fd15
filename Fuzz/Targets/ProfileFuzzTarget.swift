// libFuzzer target for the profile loader (Sources/IMProfiles) and the JSON it reads (Sources/IMJSON).
//
// The input is the text of a profile file. `ProfileLoader.load(file:)` reads the file and hands
// its bytes to `ProfileReader.read(_:)`; the target calls the reader directly (through
// `@testable import`), so no file is written per input. Oracles:
// - the reader returns a profile exactly when it recorded no error;
// - every diagnostic has a 1-based line and column inside the input, and prints;
// - every account of a profile has a valid device id and, when known, a valid user id;
// - the server addresses and the api URL of a profile print as text that parses to the same value;
// - `JSONValue(parsing:)` (payloads) either throws or gives a value whose `encoded()` text
//   parses to the same value.
import IMConfig
import IMJSON
import IMHTTP
import IMProtocol
@testable import IMProfiles

/// libFuzzer calls this once per input; a return of 0 keeps the input eligible for the corpus.
@_cdecl("LLVMFuzzerTestOneInput")
public func profileFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    ProfileFuzzTarget.run(fuzzInput(data, size))
    return 0
}

enum ProfileFuzzTarget {
    static func run(_ bytes: [UInt8]) {
        checkProfile(bytes)
        checkJSONValue(bytes)
    }

    static func checkProfile(_ bytes: [UInt8]) {
        let diagnostics = ConfigDiagnostics(file: "fuzz.json")
        var reader = ProfileReader(name: "fuzz", diagnostics: diagnostics)
        let profile = reader.read(bytes)
        _ = reader.sensitiveFields
        if (profile == nil) != diagnostics.hasErrors {
            fuzzFailure("profile \(profile.map(String.init(describing:)) ?? "nil") with diagnostics \(diagnostics.all)")
        }
        let lineCount = 1 + bytes.count(where: { $0 == 0x0A })
        for diagnostic in diagnostics.all {
            _ = diagnostic.description
            guard let location = diagnostic.location else { continue }
            guard (1...lineCount).contains(location.line), (1...bytes.count + 1).contains(location.column) else {
                fuzzFailure("\(diagnostic) is outside the input of \(lineCount) lines, \(bytes.count) bytes")
            }
        }
        guard let profile else { return }
        _ = profile.description
        checkReparsed(profile)
        for account in profile.accounts {
            _ = (account.description, account.reference)
            guard IMIdentifier.isValidDeviceID(account.deviceID), account.userID.map(IMIdentifier.isValidUserID) ?? true else {
                fuzzFailure("account \(account) has an invalid device or user id")
            }
        }
    }

    static func checkReparsed(_ profile: Profile) {
        if case .addresses(let addresses) = profile.server {
            for address in addresses {
                checkReadsBack(address, written: address.url) { text throws(URLParseError) in try ServerAddress(mqttURL: text) }
            }
        }
        if let api = profile.api {
            checkReadsBack(api, written: api.description) { text throws(URLParseError) in try HTTPURL(parsing: text) }
        }
    }

    static func checkJSONValue(_ bytes: [UInt8]) {
        guard let value = try? JSONValue(parsing: bytes) else { return }
        checkReadsBack(value, written: value.encoded()) { bytes throws(JSONError) in try JSONValue(parsing: bytes) }
    }
}
