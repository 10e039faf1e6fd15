import CEdit

/// The C entry points libedit calls: each finds the session through EL_CLIENTDATA.
extension EditorSession {
    static func session(of editLine: OpaquePointer?) -> EditorSession? {
        guard let editLine, let data = imsh_el_get_clientdata(editLine) else { return nil }
        return Unmanaged<EditorSession>.fromOpaque(data).takeUnretainedValue()
    }

    func installCallbacks() {
        _ = imsh_el_set_prompt_esc(editLine, { editLine in
            EditorSession.session(of: editLine)?.prompt
        }, CChar(PromptMarkup.delimiter.value))
        _ = imsh_el_set_getcfn(editLine) { editLine, character in
            guard let character, let session = EditorSession.session(of: editLine) else { return -1 }
            return session.readCharacter(into: character)
        }
        _ = imsh_el_addfn(editLine, "imsh-redraw", "Print queued messages above the line", { editLine, _ in
            EditorSession.session(of: editLine)?.redrawCommand() ?? UInt8(CC_ERROR)
        })
        _ = imsh_el_bind(editLine, String(Character(Self.redrawCharacter)), "imsh-redraw")
        _ = imsh_el_addfn(editLine, "imsh-interrupt", "Abandon the line and start afresh", { editLine, _ in
            EditorSession.session(of: editLine)?.interruptCommand() ?? UInt8(CC_ERROR)
        })
        _ = imsh_el_bind(editLine, "^C", "imsh-interrupt")
        if options.completion != nil {
            _ = imsh_el_addfn(editLine, "imsh-complete", "Complete the word before the cursor", { editLine, _ in
                EditorSession.session(of: editLine)?.completeCommand() ?? UInt8(CC_ERROR)
            })
            _ = imsh_el_bind(editLine, "^I", "imsh-complete")
        }
    }
}
