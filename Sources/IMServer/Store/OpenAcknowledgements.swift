/// A device's acknowledgements gathered into one call of the lane until it runs.
final class OpenAcknowledgements {
    var messageIDs: [Int64]
    var answers: [(Result<Int, any Error>) -> Void]

    init(messageIDs: [Int64], then: @escaping (Result<Int, any Error>) -> Void) {
        self.messageIDs = messageIDs
        self.answers = [then]
    }
}
