import IMConfig
import IMJSON
import IMProtocol
import IMTransport

/// What an account needs to know of its profile while it is read.
struct AccountContext {
    var appKey: String?
    /// `appSecret` is given (even if in error).
    var hasAppSecret: Bool
    /// `api` is set, or the server is embedded (or either field is in error).
    var hasAPI: Bool
    var defaults: SessionSettings
    /// The profile's and its defaults' `tls`, merged.
    var tls: TLSClientConfiguration?
}

extension ProfileReader {
    static let accountFieldNames: Set<String> = settingNames.union(["userId", "deviceId", "proxy", "tls"]).union(tokenFieldNames)
    static let tokenFieldNames: Set<String> = ["token", "tokenCommand", "tokenURL"]

    /// The accounts in file order; a repeated name is reported and its later entries skipped.
    mutating func readAccounts(_ node: JSONNode, context: AccountContext) -> [Account] {
        guard case .object(let members) = node.value else {
            diagnostics.error("accounts", at: node.location, "expected an object of accounts by name, found \(node.typeName)")
            return []
        }
        // Every name is allowed: this reports repeated names only.
        _ = diagnostics.object(node, field: "accounts", allowed: Set(members.map(\.key)))
        var accounts: [Account] = []
        var seen: Set<String> = []
        var devices: [String: String] = [:]
        for member in members where seen.insert(member.key).inserted {
            let field = "accounts.\(member.key)"
            guard ProfileName.isValid(member.key) else {
                diagnostics.error(field, at: member.keyLocation, "invalid account name; \(ProfileName.rule)")
                continue
            }
            // In commands `all` (and PROFILE/all) is every account of the profile.
            guard member.key != "all" else {
                diagnostics.error(field, at: member.keyLocation, "the name all is reserved: in commands it means every account of the profile")
                continue
            }
            guard let object = diagnostics.object(member.value, field: field, allowed: Self.accountFieldNames),
                  let account = readAccount(object, name: member.key, keyLocation: member.keyLocation, context: context)
            else { continue }
            if let other = devices.updateValue(account.name, forKey: account.deviceID) {
                diagnostics.warning(object.fieldPath("deviceId"), at: object.node("deviceId")?.location ?? member.keyLocation,
                                    "same device as account \(other): the two take over each other's MQTT session")
            }
            accounts.append(account)
        }
        return accounts
    }

    private mutating func readAccount(_ object: ObjectReader, name: String, keyLocation: SourceLocation, context: AccountContext) -> Account? {
        let errorsBefore = diagnostics.all.count(where: { $0.severity == .error })
        var userID = readIdentifier(object, "userId", IMIdentifier.isValidUserID, "user ids are 1-64 characters of A-Z a-z 0-9 + = _ -")
        let deviceID = readIdentifier(object, "deviceId", IMIdentifier.isValidDeviceID, "device ids are 1-64 characters of A-Z a-z 0-9 _ -")
        let source = readTokenSource(object)
        if case .string = object.node("token")?.value { noteSecret(object.fieldPath("token")) }
        if case .literal(let token) = source {
            userID = checkClaims(of: token, object: object, userID: userID, appKey: context.appKey)
        }
        if source == .serverAPI {
            requireServerAPI(object, context: context, at: keyLocation)
        }
        let settings = readSettings(object, over: context.defaults, includingJitter: false)
        let proxy = readProxy(object)
        let tls = readTLS(object, over: context.tls)
        if proxy?.password != nil { noteSecret(object.fieldPath("proxy"), isProxyPassword: true) }
        guard diagnostics.all.count(where: { $0.severity == .error }) == errorsBefore, let source else { return nil }
        return Account(
            name: name, profile: self.name, userID: userID, tokenSource: source,
            deviceID: deviceID ?? Account.derivedDeviceID(profile: self.name, account: name),
            settings: settings, proxy: proxy, tls: tls)
    }

    private func readIdentifier(_ object: ObjectReader, _ key: String, _ isValid: (String) -> Bool, _ rule: String) -> String? {
        guard let value = object.string(key), let node = object.node(key) else { return nil }
        guard isValid(value) else {
            diagnostics.error(object.fieldPath(key), at: node.location, "\"\(value)\" is not valid; \(rule)")
            return nil
        }
        return value
    }

    /// The one token field given, read; `.serverAPI` when none is; `nil` after an error.
    private func readTokenSource(_ object: ObjectReader) -> TokenSource? {
        let given = object.members.filter { Self.tokenFieldNames.contains($0.key) }
        var names: [String] = []
        for member in given where !names.contains(member.key) {
            if let first = names.first {
                diagnostics.error(object.fieldPath(member.key), at: member.keyLocation,
                                  "give only one of token, tokenCommand, tokenURL (\(first) is given)")
            }
            names.append(member.key)
        }
        guard names.count <= 1 else { return nil }
        switch names.first {
        case nil:
            return .serverAPI
        case "token":
            return object.string("token").map { .literal(Secret($0)) }
        case "tokenCommand":
            return object.string("tokenCommand").map { .command($0) }
        default:
            guard let text = object.string("tokenURL"), let node = object.node("tokenURL") else { return nil }
            return httpURL(text, field: object.fieldPath("tokenURL"), at: node.location, base: false).map { .url($0) }
        }
    }

    /// The user id, taken from a readable token when the account gives none; warns when the token
    /// names another user or app key. A token that is not of the contract's form is left alone:
    /// a stock broker's password can be anything.
    private func checkClaims(of token: Secret, object: ObjectReader, userID: String?, appKey: String?) -> String? {
        guard let claims = try? TokenClaims.read(token.value), let node = object.node("token") else { return userID }
        let field = object.fieldPath("token")
        if let userID, userID != claims.userID {
            diagnostics.warning(field, at: node.location, "the token belongs to user \(claims.userID), not userId \(userID)")
        }
        if let appKey, appKey != claims.appKey {
            diagnostics.warning(field, at: node.location, "the token was issued for app key \(claims.appKey), not \(appKey)")
        }
        return userID ?? claims.userID
    }

    /// An account without a token gets one from the server API: that needs the app secret, an
    /// API to call, and the user id to ask for. What is missing is said in one diagnostic, so
    /// that "to get one from the server API" is said once.
    private func requireServerAPI(_ object: ObjectReader, context: AccountContext, at keyLocation: SourceLocation) {
        let noUserID = object.node("userId") == nil
        let account = noUserID ? " and the account no userId" : ""
        let missing = "has no token, tokenCommand or tokenURL"
        if !context.hasAppSecret {
            diagnostics.error(object.path, at: keyLocation, "\(missing), and the profile has no appSecret\(account) to get one from the server API")
        } else if !context.hasAPI {
            diagnostics.error(object.path, at: keyLocation, "\(missing), and the profile has no api (or embedded server)\(account) to get one from")
        } else if noUserID {
            diagnostics.error(object.fieldPath("userId"), at: object.location, "missing (required to get a token from the server API)")
        }
    }

    private func readProxy(_ object: ObjectReader) -> ProxyAddress? {
        guard let text = object.string("proxy"), let node = object.node("proxy") else { return nil }
        do {
            return try ProxyAddress(parsing: text)
        } catch {
            diagnostics.error(object.fieldPath("proxy"), at: node.location, error.reason)
            return nil
        }
    }
}
