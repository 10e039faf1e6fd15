import IMProtocol
import IMStore
import MQTT

/// The broker's logins, from CONNECT to CONNACK: the limits, the token, the user's standing
/// and the device policy, the device's registration (and its presence with other nodes), and
/// the push wish a device leaves at its DISCONNECT. A part of `BrokerCore`.
///
/// Logins that wait for the store at the same time share its calls (`LoginBatches`).
final class Logins {
    private unowned let core: BrokerCore
    private var rateLimiter: ConnectRateLimiter
    /// Logins waiting for the store, gathered so that those arriving together share one call.
    private var batches = LoginBatches()
    /// Devices that left with `im-push` `off`, until they log in again (see `notePush`).
    private var pushDisabled: Set<DeviceKey> = []

    init(core: BrokerCore) {
        self.core = core
        self.rateLimiter = ConnectRateLimiter(rate: Double(core.limits.connectRate))
    }

    /// A reload changed the connect rate: the bucket starts again, full, at the new rate.
    func connectRateChanged(to rate: Int) {
        rateLimiter = ConnectRateLimiter(rate: Double(rate))
    }

    /// These users were blocked, deactivated or kicked: their logins whose standing is being
    /// read are read again (`LoginBatches.changedDuringRead`).
    func usersChanged(appKey: String, userIDs: [String]) {
        if batches.standing.isBusy {
            batches.changedDuringRead.formUnion(userIDs.map { UserKey(appKey: appKey, userID: $0) })
        }
    }

    /// A CONNECT: limits, credentials, the user's standing, then the device policy, then CONNACK.
    func connect(_ broker: BrokerConnection, _ connect: Connect) {
        guard !core.shuttingDown else { return refuse(broker, .serverUnavailable, nil) }
        guard rateLimiter.tryAcquire(now: core.clock.monotonic()) else { return refuse(broker, .connectionRateExceeded, nil) }
        // `core.connections` holds this one too.
        guard core.connections.count <= core.limits.maxConnections else { return refuse(broker, .serverBusy, nil) }
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
        switch LoginCheck.checkToken(appKey: appKey, token: token, app: core.apps[appKey]) {
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
    private func continueLogin(_ pending: LoginBatches.Pending, state: UserState, elsewhere: [RemoteDevice] = []) {
        let (broker, claims) = (pending.broker, pending.claims)
        guard let login = broker.login else { return }
        // The app may have been blocked or removed while the store answered.
        let app = core.apps[login.appKey]
        guard let app, !app.blocked else { return refuse(broker, .notAuthorized, app == nil ? .appUnknown : .appBlocked) }
        let verdict = LoginCheck.admit(claims, app: app, user: state, now: core.clock.wallMilliseconds())
        guard case .accept = verdict else {
            if case .refuse(let code, let name) = verdict { refuse(broker, code, name) }
            return
        }
        let others = core.online.connections(of: login.user)
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
                case .sessionTakenOver: core.disconnect(evicted, .sessionTakenOver)
                case .otherDeviceLogin: core.disconnect(evicted, .sessionTakenOver, .otherDeviceLogin)
                }
            }
        }
        core.addToOnline(broker)
        pushDisabled.remove(login.device)
        registerDevice(pending)
    }

    /// The login as the device policy sees it: device, platform, `im-reconnect`, `im-kick-enable`.
    private func policyLogin(_ pending: LoginBatches.Pending) -> DevicePolicy.Login? {
        guard let login = pending.broker.login else { return nil }
        let properties = pending.connect.properties
        return DevicePolicy.Login(
            clientID: login.deviceID, platform: login.platform.rawValue,
            isReconnection: properties.userProperty(IMUserProperty.reconnect) == IMUserProperty.flagSet,
            kickEnable: properties.userProperty(IMUserProperty.kickEnable) == IMUserProperty.flagSet)
    }

    private func completeLogin(_ broker: BrokerConnection, _ connect: Connect) {
        guard broker.login != nil else { return }
        broker.limitDeliveries(receiveMaximum: connect.properties.receiveMaximum,
                               maximumPacketSize: connect.properties.maximumPacketSize)
        acknowledgeLogin(broker)
        core.deadlines.watchKeepAlive(broker, seconds: connect.keepAlive)
        // A login's packets, token and store answers are garbage now, in holes between the
        // connections' objects: without a trim they would stay resident while the client idles.
        core.loop.trimHeapWhenIdle()
    }

    /// CONNACK 0x00: the connection is online from here.
    private func acknowledgeLogin(_ broker: BrokerConnection) {
        guard let login = broker.goOnline() else { return }
        core.counters.loginsAccepted += 1
        core.wills.cancel(login.device)
        // Session Present is always 0: subscriptions are not kept between connections, so the
        // client subscribes again; its undelivered messages are kept whatever the session state.
        broker.send(.connack(ConnAck(sessionPresent: false, reasonCode: .success, properties: [
            .userProperty(IMUserProperty.userID, login.userID),
            .maximumQoS(.atLeastOnce),
            .retainAvailable(false),
            .topicAliasMaximum(0),
            .sharedSubscriptionAvailable(false),
            .subscriptionIdentifierAvailable(false),
            .maximumPacketSize(UInt32(core.limits.maxPacketSize)),
        ])))
    }

    /// CONNACK with a failure code (and `im-error`), then close.
    private func refuse(_ broker: BrokerConnection, _ code: ReasonCode, _ name: IMErrorName?, reason: String? = nil) {
        var properties: Properties = []
        if let name { properties.appendUserProperty(IMUserProperty.error, name.rawValue) }
        if let reason { properties.reasonString = reason }
        broker.send(.connack(ConnAck(sessionPresent: false, reasonCode: code, properties: properties)))
        core.counters.loginsRefused[BrokerCounters.Reason(code, name), default: 0] += 1
        broker.close(.graceful)
    }

    /// Reads the user's standing for a login whose token checked out, with the other logins
    /// waiting at the same time; `continueLogin` follows for each.
    private func readStanding(_ pending: LoginBatches.Pending) {
        batches.standing.add(pending)
        flushStandingReads()
    }

    private func flushStandingReads() {
        guard let batch = batches.standing.next() else { return }
        let users = batch.map { (appKey: $0.broker.login?.appKey ?? "", userID: $0.claims.userID) }
        let store = core.store
        let cluster = core.cluster.nodes
        let now = core.clock.wallMilliseconds()
        // Devices online on other nodes matter only to a login that may have to give way to
        // them (the policy's one refusal); the others' evictions happen on those nodes.
        let mayGiveWay = batch.map { pending in
            guard cluster != nil, let login = policyLogin(pending) else { return false }
            return login.isReconnection && login.kickEnable && core.apps[pending.broker.login?.appKey ?? ""]?.clientControlsKickPolicy == true
        }
        core.perform({
            let states = try await store.userStates(users)
            let asked = zip(users, mayGiveWay).filter(\.1).map(\.0)
            var found = try await cluster?.onlineElsewhere(asked, now: now) ?? []
            let elsewhere = mayGiveWay.map { $0 && !found.isEmpty ? found.removeFirst() : [] }
            return (states, elsewhere)
        }) { core, result in
            core.logins.batches.standing.finish()
            let changed = core.logins.batches.changedDuringRead
            core.logins.batches.changedDuringRead = []
            for (index, pending) in batch.enumerated() where pending.broker.stage == .authenticating {
                if let login = pending.broker.login, changed.contains(UserKey(appKey: login.appKey, userID: login.userID)) {
                    core.logins.batches.standing.add(pending)
                    continue
                }
                switch result {
                case .success(let (states, elsewhere)): core.logins.continueLogin(pending, state: states[index], elsewhere: elsewhere[index])
                case .failure: core.logins.refuse(pending.broker, .serverUnavailable, nil)
                }
            }
            core.logins.flushStandingReads()
        }
    }

    /// Records the device of an admitted login, with the others admitted meanwhile;
    /// `completeLogin` (CONNACK) follows for each.
    private func registerDevice(_ pending: LoginBatches.Pending) {
        batches.registrations.add(pending)
        flushRegistrations()
    }

    private func flushRegistrations() {
        guard let batch = batches.registrations.next() else { return }
        let admitted = batch.compactMap { pending in
            pending.broker.login.map {
                (pending, DeviceRegistration(appKey: $0.appKey, userID: $0.userID, deviceID: $0.deviceID, platform: $0.platform))
            }
        }
        let registrations = admitted.map(\.1)
        let connections = admitted.map(\.0.broker.id)
        let (store, cluster) = (core.store, core.cluster.nodes)
        let now = core.clock.wallMilliseconds()
        // Their notices go over the links when those reach every live node (`NodeLinks`).
        let notify = !(core.cluster.links?.carriesAll ?? false)
        // With other nodes, the logins join the cluster before their CONNACKs, so that every
        // node sees a device online as soon as the device does.
        core.perform({ () async throws -> [Int64]? in
            _ = try await store.registerDevices(registrations, now: now)
            return try await cluster?.joined(Array(zip(registrations, connections)), now: now, notify: notify)
        }) { core, result in
            core.logins.batches.registrations.finish()
            if !notify, case .success(let sequences?) = result, let node = cluster?.nodeName {
                core.cluster.links?.publish(PostgresCluster.loginNotices(node: node, registrations, sequences))
            }
            for (index, (pending, _)) in admitted.enumerated() {
                let sequence = (try? result.get())??[index]
                pending.broker.recordPresence(sequence)
                guard pending.broker.stage == .authenticating else {
                    // It ended while the rows were written: they must not outlive it.
                    core.cluster.leave(pending.broker)
                    continue
                }
                guard case .success = result else {
                    core.removeFromOnline(pending.broker)
                    core.logins.refuse(pending.broker, .serverUnavailable, nil)
                    continue
                }
                core.logins.completeLogin(pending.broker, pending.connect)
                core.cluster.applyLaterLogins(pending.broker)
            }
            core.logins.flushRegistrations()
        }
    }

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
