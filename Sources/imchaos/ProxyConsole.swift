import Foundation
import IMChaos
import IMCommandLine

/// Reads commands from standard input and carries them out on the proxy, until `quit`.
///
/// Lines are read on a thread of their own (a blocking read) and handed over through a stream.
struct ProxyConsole {
    let proxy: FaultProxy
    let plan: RandomFaults
    let output: ChaosOutput

    /// Returns after `quit`. At the end of input it waits for ever: the proxy runs until a signal.
    func run() async {
        for await line in Self.lines() {
            let command: ConsoleCommand?
            do {
                command = try ConsoleCommand.parse(line)
            } catch {
                CommandLineTool.writeError("imchaos: \(error.message)\n")
                continue
            }
            guard let command else { continue }
            if command == .quit { return }
            await perform(command)
        }
        while true { try? await Task.sleep(for: .seconds(3_600)) }
    }

    private func perform(_ command: ConsoleCommand) async {
        switch command {
        case .list:
            output.list(await proxy.connections())
        case .fault(nil, let fault):
            await proxy.set(fault)
        case .fault(let id?, let fault):
            if await !proxy.inject(fault, into: id) {
                CommandLineTool.writeError("imchaos: no open connection \(id) (see 'list')\n")
            }
        case .random(let on):
            if on { await proxy.startRandomFaults(plan) } else { await proxy.stopRandomFaults() }
            output.random(on: on, plan: plan)
        case .help:
            output.help(ChaosCommand.commands)
        case .quit:
            break
        }
    }

    /// Standard input's lines, read on a dedicated thread.
    private static func lines() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        Thread.detachNewThread {
            while let line = readLine() { continuation.yield(line) }
            continuation.finish()
        }
        return stream
    }
}
