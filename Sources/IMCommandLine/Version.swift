/// The version of imsh and imserver, printed by `--version`.
public let imshVersion = "0.1.0"
