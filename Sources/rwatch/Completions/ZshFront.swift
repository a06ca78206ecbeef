/// rwatch's front of the zsh script (`CompletionScript` says what it adds
/// to ArgumentParser's): ArgumentParser's `_rwatch` is renamed
/// `_rwatch_argument_parser`, and a new `_rwatch` hands it the words it
/// understands.
enum ZshFront {
    /// `generated` (ArgumentParser's script) without its last lines, which
    /// call or register its `_rwatch`, then the front, which does that for
    /// its own.
    static func script(_ facts: CompletionScript.Facts, after generated: String) throws -> String {
        guard let ending = generated.firstRange(of: "\nif [[ \"${funcstack[1]}\" = _rwatch ]]; then") else {
            throw RWatchError("ArgumentParser's zsh script does not end as expected: rwatch completions zsh needs updating")
        }
        let words = { (list: [String]) in list.map { "'\($0)'" }.joined(separator: " ") }
        return String(generated[..<ending.lowerBound]) + """


            # rwatch's front (Sources/rwatch/Completions/CompletionScript.swift): rwatch without
            # a subcommand is `rwatch watch`; its command is completed as that command;
            # rwatch help SUBCOMMAND.
            typeset -ga _rwatch_subcommands=(\(words(facts.subcommands)))
            typeset -ga _rwatch_valued=(\(words(facts.valued)))
            typeset -ga _rwatch_optional=(\(words(facts.optional)))

            """ + functions
    }

    /// The front's functions, which read the arrays above, and the lines
    /// that call or register its `_rwatch`.
    static let functions = """
        functions -c _rwatch _rwatch_argument_parser

        # ArgumentParser's completion of `rwatch watch …`.
        _rwatch_as_watch() {
            words=("${words[1]}" watch "${(@)words[2,-1]}")
            (( CURRENT++ ))
            _rwatch_argument_parser "$@"
        }

        _rwatch() {
            if (( CURRENT > 2 && ${_rwatch_subcommands[(Ie)${words[2]}]} )); then
                if [[ ${words[2]} != help ]]; then
                    _rwatch_argument_parser "$@"
                elif (( CURRENT == 3 )); then
                    compadd -a _rwatch_subcommands
                fi
                return
            fi
            # The command starts at the first word that is no option and no
            # option's value, or after --.
            local -i i start=0 value=0
            for (( i = 2; i < CURRENT; i++ )); do
                if (( value )); then
                    value=0
                elif [[ ${words[i]} == -- ]]; then
                    start=$(( i + 1 )) && break
                elif [[ ${words[i]} == -* ]]; then
                    (( ${_rwatch_valued[(Ie)${words[i]}]} )) && value=1
                else
                    start=$i && break
                fi
            done
            if (( start && start < CURRENT )); then
                shift $(( start - 1 )) words
                (( CURRENT -= start - 1 ))
                _normal
            elif (( start == CURRENT )); then
                _command_names -e
            elif (( value )) || [[ $PREFIX == -* ]]; then
                _rwatch_as_watch "$@"
            else
                (( CURRENT == 2 )) && _rwatch_argument_parser "$@"
                _command_names -e
                (( ${_rwatch_optional[(Ie)${words[CURRENT-1]}]} )) && _rwatch_as_watch "$@"
            fi
            return 0
        }

        if [[ "${funcstack[1]}" = _rwatch ]]; then
            _rwatch "$@"
        else
            compdef _rwatch rwatch
        fi

        """
}
