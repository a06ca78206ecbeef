/// rwatch's front of the bash script (`CompletionScript` says what it
/// adds to ArgumentParser's): it takes `complete -F` over from
/// ArgumentParser's `_rwatch`, and hands it the words it understands.
enum BashFront {
    static func script(_ facts: CompletionScript.Facts) -> String {
        """

        # rwatch's front (Sources/rwatch/Completions/CompletionScript.swift): rwatch without
        # a subcommand is `rwatch watch`; its command is completed as that command;
        # --name=value; rwatch help SUBCOMMAND.
        _rwatch_subcommands=' \(facts.subcommands.joined(separator: " ")) '
        _rwatch_valued=' \(facts.valued.joined(separator: " ")) '
        _rwatch_optional=' \(facts.optional.joined(separator: " ")) '

        """ + functions
    }

    /// The front's functions, which read the lists above.
    static let functions = """

        # COMPREPLY gets what `compgen ARGS` finds for $cur, one a line (names keep their spaces).
        _rwatch_add() {
            local line
            while IFS= read -r line; do COMPREPLY+=("$line"); done < <(compgen "$@" -- "$cur")
        }

        # ArgumentParser's completion of `rwatch watch …` for the word $1, after $2.
        _rwatch_as_watch() {
            local -a words=("${COMP_WORDS[0]}" watch "${COMP_WORDS[@]:1}")
            local -a COMP_WORDS=("${words[@]}")
            local COMP_CWORD=$((COMP_CWORD + 1)) COMP_POINT=$((COMP_POINT + 6))
            local COMP_LINE="${words[0]} watch${COMP_LINE#"${words[0]}"}"
            _rwatch "${words[0]}" "$1" "$2"
        }

        _rwatch_front() {
            COMPREPLY=()
            local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
            if ((COMP_CWORD > 1)) && [[ $_rwatch_subcommands == *" ${COMP_WORDS[1]} "* ]]; then
                if [[ ${COMP_WORDS[1]} != help ]]; then
                    _rwatch "${COMP_WORDS[0]}" "$cur" "$prev"
                elif ((COMP_CWORD == 2)); then
                    _rwatch_add -W "$_rwatch_subcommands"
                fi
                return
            fi
            # The command starts at the first word that is no option and no
            # option's value (bash splits --name=value at the =), or after --.
            local i word start=0 value=false
            for ((i = 1; i < COMP_CWORD; i++)); do
                word=${COMP_WORDS[i]}
                if [[ $word == = ]]; then value=true
                elif $value; then value=false
                elif [[ $word == -- ]]; then start=$((i + 1)) && break
                elif [[ $word == -* ]]; then [[ $_rwatch_valued == *" $word "* ]] && value=true
                else start=$i && break
                fi
            done
            if ((start > 0 && start < COMP_CWORD)); then
                if declare -F _command_offset >/dev/null; then _command_offset "$start"; else _rwatch_add -f; fi
            elif ((start == COMP_CWORD)); then
                _rwatch_add -c
            elif [[ $cur == = ]]; then
                _rwatch_as_watch "" "$prev"
            elif $value; then
                [[ $prev == = ]] && prev=${COMP_WORDS[COMP_CWORD-2]}
                _rwatch_as_watch "$cur" "$prev"
            elif [[ $cur == --*=* ]]; then
                _rwatch_as_watch "${cur#*=}" "${cur%%=*}"
                COMPREPLY=("${COMPREPLY[@]/#/${cur%%=*}=}")
            elif [[ $cur == -* ]]; then
                _rwatch_as_watch "$cur" "$prev"
            else
                ((COMP_CWORD == 1)) && _rwatch_add -W "$_rwatch_subcommands"
                [[ $_rwatch_optional == *" $prev "* ]] && _rwatch_as_watch "$cur" "$prev"
                _rwatch_add -c
            fi
        }

        complete -o filenames -F _rwatch_front rwatch

        """
}
