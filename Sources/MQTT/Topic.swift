/// Rules for topic names (what PUBLISH sends to) and topic filters (what SUBSCRIBE asks for).
///
/// Levels are separated by "/". A filter may use "+" for exactly one level and "#",
/// as the last level, for any number of levels (zero included). Names and filters
/// starting with "$" are not matched by a filter starting with a wildcard.
public enum Topic {
    /// The prefix of a shared subscription filter: `$share/{ShareName}/{filter}`.
    public static let sharedPrefix = "$share/"

    /// Checks a topic name: not empty, no "+" or "#", no U+0000.
    public static func validateName(_ name: String) throws(TopicError) {
        guard !name.isEmpty else { throw TopicError(.topicNameInvalid, "topic name is empty") }
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "+"), UInt8(ascii: "#"):
                throw TopicError(.topicNameInvalid, "topic name \"\(name)\" contains a wildcard")
            case 0:
                throw TopicError(.topicNameInvalid, "topic name contains U+0000")
            default:
                continue
            }
        }
    }

    /// Checks a topic filter: not empty, no U+0000, "#" only as a whole last level,
    /// "+" only as a whole level, and a shared subscription as `$share/{name}/{filter}`
    /// with a share name free of "/", "+" and "#" and a non-empty filter.
    public static func validateFilter(_ filter: String) throws(TopicError) {
        guard !filter.isEmpty else { throw TopicError(.topicFilterInvalid, "topic filter is empty") }
        var rest = Substring(filter)
        if filter.hasPrefix(sharedPrefix) {
            rest = rest.dropFirst(sharedPrefix.count)
            guard let slash = rest.firstIndex(of: "/") else {
                throw TopicError(.topicFilterInvalid, "shared subscription \"\(filter)\" has no topic filter after the share name")
            }
            let shareName = rest[..<slash]
            guard !shareName.isEmpty, !shareName.contains(where: { $0 == "+" || $0 == "#" }) else {
                throw TopicError(.topicFilterInvalid, "shared subscription \"\(filter)\" needs a share name without wildcards")
            }
            rest = rest[rest.index(after: slash)...]
            guard !rest.isEmpty else {
                throw TopicError(.topicFilterInvalid, "shared subscription \"\(filter)\" has an empty topic filter")
            }
        }
        let levels = rest.split(separator: "/", omittingEmptySubsequences: false)
        for (position, level) in levels.enumerated() {
            if level.utf8.contains(0) {
                throw TopicError(.topicFilterInvalid, "topic filter contains U+0000")
            }
            if level.contains("#") && (level != "#" || position != levels.count - 1) {
                throw TopicError(.topicFilterInvalid, "\"#\" in \"\(filter)\" must be a whole level and the last one")
            }
            if level.contains("+") && level != "+" {
                throw TopicError(.topicFilterInvalid, "\"+\" in \"\(filter)\" must be a whole level")
            }
        }
    }

    public static func isValidName(_ name: String) -> Bool {
        (try? validateName(name)) != nil
    }

    public static func isValidFilter(_ filter: String) -> Bool {
        (try? validateFilter(filter)) != nil
    }

    /// The share name and the filter of a `$share/{ShareName}/{filter}` subscription,
    /// or nil for an ordinary filter. Does not check the parts; see `validateFilter`.
    public static func sharedSubscription(_ filter: String) -> (shareName: Substring, filter: Substring)? {
        guard filter.hasPrefix(sharedPrefix) else { return nil }
        let rest = filter.dropFirst(sharedPrefix.count)
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        return (rest[..<slash], rest[rest.index(after: slash)...])
    }

    /// Whether `filter` (valid, not shared: pass the part after the share name) matches topic `name`.
    public static func matches(filter: String, name: String) -> Bool {
        let filterLevels = filter.split(separator: "/", omittingEmptySubsequences: false)
        let nameLevels = name.split(separator: "/", omittingEmptySubsequences: false)
        if name.hasPrefix("$"), let first = filterLevels.first, first == "+" || first == "#" {
            return false
        }
        for (position, level) in filterLevels.enumerated() {
            if level == "#" { return true }
            guard position < nameLevels.count else { return false }
            if level != "+" && level != nameLevels[position] { return false }
        }
        return filterLevels.count == nameLevels.count
    }
}
