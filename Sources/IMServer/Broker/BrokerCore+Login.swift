import IMProtocol
import MQTT

extension BrokerCore {
    /// A CONNECT: limits, credentials, the user's standing, then the device policy, then CONNACK.
    func handleConnect(_ broker: BrokerConnection, _ connect: Connect) {
        guard !shuttingDown else { return refuse(broker, .serverUnavailable, nil) }
        guard rateLimiter.tryAcquire(now: clock.monotonic()) else { return refuse(broker, .connectionRateExceeded, nil) }
        // `connections` holds this one too.
        guard connections.count <= limits.maxConnections else { return refuse(broker, .serverBusy, nil) }
        guard IMIdentifier.isValidDeviceID(connect.clientIdentifier) else {
            return refuse(broker, .clientIdentifierNotValid, nil,
                          reason: "the client identifier (device id) must be 1-64 characters of A-Z a-z 0-9 _ -")
        }
        var platform = Platform.default
        if let name = connect.properties.userProperty(IMUserProperty.platform) {
            guard let named = Platform(rawValue: name) else {
                return refuse(broker, .protocolError, nil, reason: "im-platform must be mobile, pc or web")
            }
            platform = named
        }
        let appKey = connect.userName ?? ""
        let token = connect.password.map { String(decoding: $0, as: UTF8.self) } ?? ""
        // The token names the user; the user's standing comes from the store, so check it in two steps.
        let claims: TokenClaims
        switch LoginCheck.checkToken(appKey: appKey, token: token, app: apps[appKey]) {
        case .success(let verified): claims = verified
        case .failure(let refusal): return refuse(broker, refusal.code, refusal.name)
        }
        let userID = claims.userID
        let will: WillMessage?
        switch Wills.check(connect, userID: userID) {
        case .success(let checked): will = checked
        case .failure(let refusal): return refuse(broker, refusal.code, nil, reason: refusal.reason)
        }
        broker.authenticate(.init(appKey: appKey, userID: userID, deviceID: connect.clientIdentifier, platform: platform), will: will)
        readStanding(LoginBatches.Pending(broker: broker, connect: connect, claims: claims))
    }

    /// The user's standing is known: check it, apply the device policy, register the device.
    /// `elsewhere` are the user's devices online on other nodes: they count for the policy's
    /// refusal; their evictions happen there, when this login's notice arrives (`PostgresCluster.joined`).
    func continueLogin(_ pending: LoginBatches.Pending, state: UserState, elsewhere: [RemoteDevice] = []) {
        let (broker, claims) = (pending.broker, pending.claims)
        guard let login = broker.login else { return }
        // The app may have been blocked or removed while the store answered.
        let app = apps[login.appKey]
        guard let app, !app.blocked else { return refuse(broker, .notAuthorized, app == nil ? .appUnknown : .appBlocked) }
        let verdict = LoginCheck.admit(claims, app: app, user: state, now: clock.wallMilliseconds())
        guard case .accept = verdict else {
            if case .refuse(let code, let name) = verdict { refuse(broker, code, name) }
            return
        }
        let key = UserKey(appKey: login.appKey, userID: login.userID)
        let others = online.connections(of: key)
        guard let attempt = policyLogin(pending) else { return }
        // Connection ids start at 1, so 0 marks the devices of other nodes.
        let devices = others.compactMap { other in
            other.login.map { DevicePolicy.OnlineDevice(connectionID: other.id, clientID: $0.deviceID, platform: $0.platform.rawValue) }
        } + elsewhere.map { DevicePolicy.OnlineDevice(connectionID: 0, clientID: $0.deviceID, platform: $0.platform) }
        switch DevicePolicy(clientControlsKickPolicy: app.clientControlsKickPolicy).decide(attempt, online: devices) {
        case .refuseOtherDeviceOnline:
            return refuse(broker, .notAuthorized, .otherDeviceOnline)
        case .accept(let evictions):
            for eviction in evictions {
                guard let evicted = others.first(where: { $0.id == eviction.connectionID }) else { continue }
                // Admitted but its CONNACK still waits for the store: it logged in, then was
                // taken over, and sees both in that order (a DISCONNECT may not come first).
                if evicted.stage == .authenticating { acknowledgeLogin(evicted) }
                switch eviction.reason {
                case .sessionTakenOver: disconnect(evicted, .sessionTakenOver)
                case .otherDeviceLogin: disconnect(evicted, .sessionTakenOver, .otherDeviceLogin)
                }
            }
        }
        online.append(broker, for: key)
        pushDisabled.remove(login.device)
        registerDevice(pending)
    }

    /// The login as the device policy sees it: device, platform, `im-reconnect`, `im-kick-enable`.
    func policyLogin(_ pending: LoginBatches.Pending) -> DevicePolicy.Login? {
        guard let login = pending.broker.login else { return nil }
        let properties = pending.connect.properties
        return DevicePolicy.Login(
            clientID: login.deviceID, platform: login.platform.rawValue,
            isReconnection: properties.userProperty(IMUserProperty.reconnect) == IMUserProperty.flagSet,
            kickEnable: properties.userProperty(IMUserProperty.kickEnable) == IMUserProperty.flagSet)
    }

    func completeLogin(_ broker: BrokerConnection, _ connect: Connect) {
        guard broker.login != nil else { return }
        broker.limitDeliveries(receiveMaximum: connect.properties.receiveMaximum,
                               maximumPacketSize: connect.properties.maximumPacketSize)
        acknowledgeLogin(broker)
        deadlines.watchKeepAlive(broker, seconds: connect.keepAlive)
        // A login's packets, token and store answers are garbage now, in holes between the
        // connections' objects: without a trim they would stay resident while the client idles.
        loop.trimHeapWhenIdle()
    }

    /// CONNACK 0x00: the connection is online from here.
    private func acknowledgeLogin(_ broker: BrokerConnection) {
        guard let login = broker.goOnline() else { return }
        counters.loginsAccepted += 1
        wills.cancel(login.device)
        // Session Present is always 0: subscriptions are not kept between connections, so the
        // client subscribes again; its undelivered messages are kept whatever the session state.
        broker.send(.connack(ConnAck(sessionPresent: false, reasonCode: .success, properties: [
            .userProperty(IMUserProperty.userID, login.userID),
            .maximumQoS(.atLeastOnce),
            .retainAvailable(false),
            .topicAliasMaximum(0),
            .sharedSubscriptionAvailable(false),
            .subscriptionIdentifierAvailable(false),
            .maximumPacketSize(UInt32(limits.maxPacketSize)),
        ])))
    }

    /// CONNACK with a failure code (and `im-error`), then close.
    func refuse(_ broker: BrokerConnection, _ code: ReasonCode, _ name: IMErrorName?, reason: String? = nil) {
        var properties: Properties = []
        if let name { properties.appendUserProperty(IMUserProperty.error, name.rawValue) }
        if let reason { properties.reasonString = reason }
        broker.send(.connack(ConnAck(sessionPresent: false, reasonCode: code, properties: properties)))
        counters.loginsRefused[BrokerCounters.Reason(code, name), default: 0] += 1
        broker.close(.graceful)
    }
}
