import IMProfiles

extension ShellCommand {
    /// The accounts the command names (not those `all` stands for), for checking a scenario
    /// before it runs.
    var namedAccounts: [AccountReference] {
        switch self {
        case let .connect(selection, _, _, _), let .disconnect(selection, _), let .net(selection, _), let .background(selection, _),
             let .foreground(selection), let .wait(selection, _, _):
            return selection.references
        case .timeline(let selection, _):
            return selection?.references ?? []
        case .kick(let account), .unblock(let account), .expireToken(let account), .deactivate(let account), .reactivate(let account),
             .block(let account, _), .send(let account, _, _), .history(let account, _, _), .link(let account, _),
             .damageDatabase(let account):
            return [account]
        case .status(let account), .log(let account, _):
            return account.map { [$0] } ?? []
        case let .expect(account, expectation):
            if case .status(_, _, let by?) = expectation.kind { return [account, by] }
            return [account]
        case .help, .profiles, .use, .accounts, .sleep, .skip, .quit, .server, .require:
            return []
        }
    }

    /// The profile that `all` of the command stands for (nil: the active one), when it has `all`.
    var allOfProfile: String?? {
        switch self {
        case let .connect(.all(profile), _, _, _), let .disconnect(.all(profile), _), let .net(.all(profile), _),
             let .background(.all(profile), _), let .foreground(.all(profile)), let .wait(.all(profile), _, _), let .timeline(.all(profile)?, _):
            return .some(profile)
        default:
            return nil
        }
    }
}

extension AccountSelection {
    /// The accounts named; none for `all`.
    var references: [AccountReference] {
        if case .accounts(let references) = self { return references }
        return []
    }
}
