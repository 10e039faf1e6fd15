import IMJSON
import Testing
import TestSupport

extension JSONObject {
    /// The `accounts` member's objects.
    var accounts: [JSONObject] {
        guard case .array(let items)? = self["accounts"] else { return [] }
        return items.compactMap(\.objectValue)
    }

}

extension ImshProcess.Run {
    /// The status events of one account, as `status` names.
    func statuses(of account: String) -> [String] {
        statusEvents().filter { $0.string("account") == account }.compactMap { $0.string("status") }
    }

    /// The result of the `index`-th command named `command`.
    func result(_ command: String, _ index: Int = 0) -> JSONObject? {
        let matching = results().filter { $0.string("command") == command }
        return index < matching.count ? matching[index] : nil
    }
}
