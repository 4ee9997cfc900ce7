#!/bin/bash
# A table solved from a rule file is called by the name the file declares
# ("game wythoff-twice"), marked as a rule file, in every subcommand and in
# the file's attributes (issue 15: solve, info, query and verify said
# "rules"). The expected name and path come from the rule file's own 'game'
# line and the command line, not from nimsieve's output.
# Usage: bash test_cli_rule_names.sh NIMSIEVE_BIN SOURCE_DIR WORK_DIR
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
rm -f "$WORK"/*.h5
cd "$SRC" || exit 2
R=data/rules/wythoff-twice.rules
NAME=$(sed -n 's/^game  *\([^ #]*\).*/\1/p' "$R")
expect_eq "the rule file declares a name" "$NAME" "wythoff-twice"
LABEL="$NAME \\(rule file $R\\)"
F="$WORK/twice.h5"

expect_ok "$NS" solve "$R" --size 32 -o "$F"
expect_out "^solving $LABEL on 32 x 32 "
expect_out "^game: +$LABEL\$"
expect_no_out 'rules on|game: +rules'

expect_ok "$NS" info "$F"
expect_out "^game: +$LABEL; its text is stored in the file \\([0-9]+ lines\\)\$"

expect_ok "$NS" query "$F" 3 4
expect_out "^game: +$LABEL, table "

expect_ok "$NS" verify "$F"
expect_out "^checking all 1024 cells of .*twice.h5 \\($LABEL \\[0,32\\) x \\[0,32\\)"

expect_ok "$NS" patterns "$F" --json
expect_out "\"game\": \"$NAME\", \"rule_file\": \"$R\""

# the attributes: game is the declared name, rules_file the path, rules the text
CHECKS=$((CHECKS + 1))
if command -v h5dump >/dev/null; then
    h5dump -a /game "$F" >"$WORK/a_game.txt" 2>&1
    h5dump -a /rules_file "$F" >"$WORK/a_file.txt" 2>&1
    grep -q "\"$NAME\"" "$WORK/a_game.txt" || fail "attribute game: $(cat "$WORK/a_game.txt")"
    grep -q "\"$R\"" "$WORK/a_file.txt" || fail "attribute rules_file: $(cat "$WORK/a_file.txt")"
fi

# a rule file that implements a preset: check names both
W="$WORK/w.h5"
expect_ok "$NS" solve data/rules/wythoff.rules --size 64 --quiet -o "$W"
expect_ok "$NS" check wythoff-golden "$W" --json
expect_out '"game": "wythoff", "rule_file": "data/rules/wythoff.rules"'
expect_ok "$NS" check wythoff-golden "$W"
expect_out '^table: +.*w.h5: wythoff \(rule file data/rules/wythoff.rules\), '

# and the table is still re-solvable from the file: move rebuilds the game
expect_ok "$NS" move "$F" 3 4
finish
