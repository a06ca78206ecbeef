/// rwatch's front of the fish script (`CompletionScript` says what it adds
/// to ArgumentParser's). ArgumentParser's conditions read the command line
/// through `__rwatch_tokens`: the front wraps it, so that they see
/// `rwatch watch …` for rwatch without a subcommand and nothing once the
/// command has started, where the front's own completions take over.
enum FishFront {
    static func script(_ facts: CompletionScript.Facts) -> String {
        """

            # rwatch's front (Sources/rwatch/Completions/CompletionScript.swift): rwatch without
            # a subcommand is `rwatch watch`; its command is completed as that command;
            # rwatch help SUBCOMMAND.
            set -g __rwatch_subcommands \(facts.subcommands.joined(separator: " "))
            set -g __rwatch_valued \(facts.valued.joined(separator: " "))

            """ + functions
    }

    /// The front's functions and completions, which read the lists above.
    static let functions = """

        # Where rwatch's command starts among the words before the cursor (an
        # index), "value" when the cursor is at an option's value, else nothing.
        function __rwatch_command_start
            set -l tokens (__rwatch_argument_parser_tokens -pc)
            set -l value 0
            for i in (seq 2 (count $tokens))
                if test $value = 1
                    set value 0
                else if test "$tokens[$i]" = --
                    math $i + 1
                    return
                else if string match -q -- '-*' $tokens[$i]
                    contains -- $tokens[$i] $__rwatch_valued; and set value 1
                else
                    echo $i
                    return
                end
            end
            test $value = 1; and echo value
        end

        # True for rwatch's own words: no subcommand was given.
        function __rwatch_without_subcommand
            set -l tokens (__rwatch_argument_parser_tokens -pc)
            not contains -- "$tokens[2]" $__rwatch_subcommands
        end

        # ArgumentParser's custom completions ask `__rwatch_tokens -tC` for the
        # cursor's place in the word, which fish 3 cannot tell outside an
        # interactive reader (complete -C in a script): it is the length of
        # the word up to the cursor.
        functions -c __rwatch_tokens __rwatch_argument_parser_tokens
        function __rwatch_tokens
            if test "$argv" = -tC
                set -l word (commandline -ct)
                string length -- "$word"
                return
            end
            set -l tokens (__rwatch_argument_parser_tokens $argv)
            if string match -q -- '-t*' $argv; or not __rwatch_without_subcommand
                printf '%s\n' $tokens
                return
            end
            set -l start (__rwatch_command_start)
            test -n "$start" -a "$start" != value; and return
            set -l before (__rwatch_argument_parser_tokens -pc)
            if set -q before[2]; or string match -q -- '-*' (commandline -ct)
                set tokens $tokens[1] watch $tokens[2..-1]
            end
            printf '%s\n' $tokens
        end

        # The cursor is at the command's name.
        function __rwatch_at_command
            __rwatch_without_subcommand; or return 1
            set -l before (__rwatch_argument_parser_tokens -pc)
            set -l start (__rwatch_command_start)
            test "$start" = (math (count $before) + 1); and return 0
            test -z "$start"; and not string match -q -- '-*' (commandline -ct)
        end

        # The cursor is in the command's arguments.
        function __rwatch_in_command
            __rwatch_without_subcommand; or return 1
            set -l before (__rwatch_argument_parser_tokens -pc)
            set -l start (__rwatch_command_start)
            test -n "$start" -a "$start" != value; and test $start -le (count $before)
        end

        function __rwatch_command_arguments
            set -l before (__rwatch_argument_parser_tokens -pc)
            set -l start (__rwatch_command_start)
            __fish_complete_subcommand --commandline $before[$start..-1] (commandline -ct)
        end

        complete -c rwatch -n __rwatch_at_command -a '(__fish_complete_command)'
        complete -c rwatch -n __rwatch_in_command -a '(__rwatch_command_arguments)'
        complete -c rwatch -n 'test (count (__rwatch_argument_parser_tokens -pc)) -eq 2; and test (__rwatch_argument_parser_tokens -pc)[2] = help' -a '$__rwatch_subcommands'

        """
}
