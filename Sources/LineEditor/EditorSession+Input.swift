#if canImport(Glibc)
import Glibc
#endif

/// libedit's character source (EL_GETCFN): the terminal, and the mailbox's wake-ups turned into
/// the redraw character.
extension EditorSession {
    private enum InputEvent {
        case bytes, ended, nothing
    }

    /// Hands libedit the next character: 1 when `character` is set, 0 at end of input.
    ///
    /// Keys already typed go first. When the mailbox wants a redraw and no key is waiting, the
    /// redraw character goes out instead; if libedit swallows it (as the tail of an unknown
    /// key sequence), the mailbox still wants a redraw and it goes out again.
    func readCharacter(into character: UnsafeMutablePointer<wchar_t>) -> Int32 {
        // Other editors may use libedit while this one waits for a key.
        Self.libedit.unlock()
        defer { Self.libedit.lock() }
        let redrawCode = wchar_t(bitPattern: Self.redrawCharacter.value)
        while true {
            if case .cleared = redraw {
                character.pointee = redrawCode
                return 1
            }
            if let scalar = decoder.next() {
                guard scalar != Self.redrawCharacter else { continue }
                hold = Self.hold(after: scalar, sequenceHold: options.keySequenceHold)
                character.pointee = wchar_t(bitPattern: scalar.value)
                return 1
            }
            if inputEnded || mailbox.isClosed {
                character.pointee = 0
                return 0
            }
            var timeout: Int32 = -1
            if isTerminal, mailbox.wantsRedraw {
                if let remaining = holdRemaining() {
                    timeout = remaining
                } else {
                    if case .bytes = waitForInput(timeout: 0) { continue }
                    redraw = .requested
                    character.pointee = redrawCode
                    return 1
                }
            }
            _ = waitForInput(timeout: timeout)
        }
    }

    private static func hold(after scalar: Unicode.Scalar, sequenceHold: Duration) -> WakeHold {
        switch scalar.value {
        case 0x1B, 0x18: return .until(.now + sequenceHold)
        case 0x16: return .nextKey  // Ctrl-V inserts the next character as it is.
        default: return .none
        }
    }

    /// Milliseconds the redraw character must still wait (-1: until a key), nil when it may go.
    private func holdRemaining() -> Int32? {
        switch hold {
        case .none:
            return nil
        case .nextKey:
            return -1
        case .until(let deadline):
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else {
                hold = .none
                return nil
            }
            let (seconds, attoseconds) = left.components
            return Int32(seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
        }
    }

    /// Waits up to `timeout` ms for a key or a wake-up; keys read go into the decoder.
    private func waitForInput(timeout: Int32) -> InputEvent {
        var entries = [
            pollfd(fd: inputDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: mailbox.wakeDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        guard poll(&entries, 2, timeout) > 0 else { return .nothing }
        if entries[1].revents != 0 { mailbox.drainWake() }
        guard entries[0].revents != 0 else { return .nothing }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(inputDescriptor, &buffer, buffer.count)
        if count > 0 {
            decoder.append(buffer[0..<count])
            return .bytes
        }
        if count < 0, errno == EINTR || errno == EAGAIN { return .nothing }
        // 0 bytes, or EIO once the terminal's other side has gone.
        inputEnded = true
        return .ended
    }
}
