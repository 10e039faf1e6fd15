import IMProtocol
import MQTT

extension BrokerCore {
    /// A client's own DISCONNECT: with `im-push` `off`, the device asked for no push
    /// notifications until it logs in again. imserver sends no push notifications itself; it
    /// records the wish (for `pushDisabledDevices`) and keeps the device's messages as always.
    func notePush(_ broker: BrokerConnection, _ disconnect: Disconnect) {
        guard let device = broker.login?.device else { return }
        if disconnect.properties.userProperty(IMUserProperty.push) == IMUserProperty.pushOff {
            pushDisabled.insert(device)
        }
    }

    /// The user's devices whose push is off now, sorted.
    func pushDisabledDevices(appKey: String, userID: String) -> [String] {
        pushDisabled.filter { $0.appKey == appKey && $0.userID == userID }.map(\.deviceID).sorted()
    }
}
