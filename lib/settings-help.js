'use strict';
// What a command's flag list and --help say of the settings it takes, from their one
// declaration (lib/settings.js): `optionsOf` gives its parseArgs options, `helpLines` the
// lines of its --help for those flags. A command writes the rest of its --help itself (what
// it answers, its word flags) and passes the defaults it alone knows (a preset's, a
// constant of bench/) to helpLines; the rest come from the declarations.
const { flags } = require('./cli');
const { SETTINGS, defaultOf } = require('./settings');

// --help is read in a terminal: no line longer than this.
const WIDTH = 92;

// The settings `command` takes, in the order they are declared.
const settingsOf = (command) => Object.keys(SETTINGS).filter((flag) => SETTINGS[flag].commands.includes(command));

// parseArgs options: the command's declared settings (each takes a value) and its own
// flags (`names`, `booleans`, `multiple`, as lib/cli.js flags takes them), --help with them.
function optionsOf(command, names = [], { booleans = [], multiple = [] } = {}) {
  return flags([...names, ...settingsOf(command)], { booleans, multiple });
}

// One option's lines: `  --flag ARG` padded to `column` (or on a line of its own when it
// does not fit), then the text, wrapped at WIDTH under the column.
function optionLines(head, text, column) {
  const indent = ' '.repeat(column);
  const lines = head.length < column ? [] : [head];
  let line = head.length < column ? head.padEnd(column) : indent;
  let empty = true;
  for (const word of text.split(/\s+/)) {
    if (!empty && line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = indent;
      empty = true;
    }
    line += (empty ? '' : ' ') + word;
    empty = false;
  }
  return [...lines, line].join('\n') + '\n';
}

// The --help lines of the settings `command` takes: what each means (its helpFor of the
// command, else its help) and "(default X)": `defaults[flag]` where the command gives one
// (a value or a text; null: none said), else the declared default of the command, if any.
// `column`: where the texts start, as in the command's own lines. `only` or `except` (flag
// names) split them into groups, each where the command's own lines read best.
function helpLines(command, { column = 25, defaults = {}, only = null, except = [] } = {}) {
  return settingsOf(command)
    .filter((flag) => (only ? only.includes(flag) : !except.includes(flag)))
    .map((flag) => {
      const s = SETTINGS[flag];
      const d = Object.hasOwn(defaults, flag) ? defaults[flag] : defaultOf(flag, command);
      const text = (s.helpFor?.[command] ?? s.help) + (d === undefined || d === null ? '' : ` (default ${d})`);
      return optionLines(`  --${flag} ${s.arg}`, text, column);
    })
    .join('');
}

module.exports = { optionsOf, helpLines, settingsOf, WIDTH };
