/**
 * English verbs whose past forms Porter stemming cannot join to the present
 * ("go" and "went"): a question asks "when did she go", the turn that
 * answers says "I went". Each line is one verb's forms, present first.
 * Forms that are also common other words ("left", "saw", "found", "lit")
 * are left out: they would match far more than the verb.
 *
 * @module
 */

const FORMS = `go went gone
make made
buy bought
meet met
see seen
take took taken
give gave given
lose lost
feel felt
begin began begun
build built
send sent
spend spent
win won
write wrote written
teach taught
think thought
bring brought
catch caught
fight fought
pay paid
grow grew grown
know knew known
throw threw thrown
show shown
become became
come came
forget forgot forgotten
choose chose chosen
draw drew drawn
drive drove driven
eat ate eaten
fall fell fallen
fly flew flown
hear heard
hold held
keep kept
lead led
run ran
sell sold
sing sang sung
sit sat
sleep slept
speak spoke spoken
stand stood
tell told
understand understood
wear wore worn
ride rode ridden
swim swam swum
break broke broken
steal stole stolen
hide hid hidden
wake woke woken
freeze froze frozen
shake shook shaken
feed fed
deal dealt
mean meant
seek sought
sink sank sunk
blow blew blown
dig dug
hang hung
strike struck
tear tore torn`;

const TABLE: ReadonlyMap<string, readonly string[]> = (() => {
  const out = new Map<string, string[]>();
  for (const line of FORMS.split("\n")) {
    const forms = line.trim().split(/\s+/).filter(Boolean);
    if (forms.length < 2) continue;
    for (const f of forms) out.set(f, forms.filter((g) => g !== f));
  }
  return out;
})();

/**
 * The other forms of an irregular English verb ("went" and "gone" for
 * "go"), or none.
 *
 * @param word A lowercased word.
 * @returns Its other forms.
 */
export function irregularForms(word: string): readonly string[] {
  return TABLE.get(word) ?? [];
}
