/// The token a session logs in with, and where its next one comes from.
///
/// One value for the token rule (contract section 2): a token the server refuses is replaced
/// once from the token source, and a second refusal in a row is final. It was a token and two
/// flags kept in step by hand; here each case is a step of the rule, so "fetch a fresh one"
/// and "a fresh one was already fetched" cannot both be pending.
enum SessionToken: Equatable {
    /// None known yet: the connect call reads the parameters' or asks the source.
    case none
    /// Logs in as it is; a refusal fetches a fresh one from the source, if there is one.
    case current(String)
    /// The next attempt asks the source first: the server refused `previous`, or the source
    /// did not answer the connect call. `previous` is what a later connect call starts from.
    case stale(previous: String?)
    /// A fresh token was fetched, or the source answered with a refusal, since the last
    /// connection: another refusal is final.
    case refreshed(String?)

    /// The token last known, whatever its standing.
    var known: String? {
        switch self {
        case .none: nil
        case .current(let token): token
        case .stale(let previous): previous
        case .refreshed(let token): token
        }
    }

    /// The next attempt fetches a fresh token before it dials.
    var needsFresh: Bool {
        if case .stale = self { true } else { false }
    }

    /// A refusal may still be answered with a fresh token from the source.
    var mayRefresh: Bool {
        if case .refreshed = self { false } else { true }
    }

    /// A connect call starts, or the server accepted a login: the known token stands, and a
    /// refusal may fetch a fresh one again.
    mutating func settle() {
        self = known.map(Self.current) ?? .none
    }

    /// The app gave `token` (`Session.updateToken`): no fetch before the next attempt; a
    /// refresh already spent since the last connection stays spent.
    mutating func replace(with token: String) {
        self = mayRefresh ? .current(token) : .refreshed(token)
    }

    /// The server refused the token, or the source did not answer: fetch one first.
    mutating func expire() {
        self = .stale(previous: known)
    }

    /// An attempt's fetch from the source brought `fresh`, or spent the refresh without a token
    /// to keep (nil: the source refused, or its token named no user).
    mutating func fetched(_ fresh: String?) {
        self = .refreshed(fresh ?? known)
    }
}
