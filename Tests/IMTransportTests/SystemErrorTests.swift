import Glibc
import IMTransport
import Testing

struct SystemErrorTests {
    @Test func namesTheCallAndTheReason() {
        let error = SystemError("connect", code: ECONNREFUSED)
        #expect(error.description == "connect: Connection refused (errno \(ECONNREFUSED))")
    }
}
