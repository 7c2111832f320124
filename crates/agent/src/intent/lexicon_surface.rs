//! The English words of the surface passes (`surface.rs`): request
//! framing, verb synonyms grouped by the role of the verb they stand for,
//! nominalised verbs, toggles said with a particle, questions. Another
//! language fills these in its own `Lexicon`.

use super::Verb;

/// A verb phrase's synonyms → the phrase of the same role the grammar
/// reads. Grouped by role: remove, turn off, turn on, log in, sign up,
/// continue, create, read (tell me), accept, choose.
pub const SYNONYMS: &[(&[&str], &[&str])] = &[
    // remove / delete
    (&["get", "rid", "of"], &["delete"]),
    (&["take", "out"], &["remove"]),
    (&["drop"], &["remove"]),
    // star (a message marked important)
    (&["flag"], &["star"]),
    // turn off
    (&["kill"], &["turn", "off"]),
    (&["stop"], &["turn", "off"]),
    (&["put", "off"], &["turn", "off"]),
    (&["mute"], &["turn", "off"]),
    // turn on
    (&["put", "on"], &["turn", "on"]),
    (&["activate"], &["turn", "on"]),
    // log in
    (&["get", "me", "into"], &["log", "into"]),
    (&["get", "into"], &["log", "into"]),
    (&["get", "me", "in"], &["log", "in"]),
    // focus
    (&["put", "the", "focus", "on"], &["focus", "on"]),
    (&["put", "the", "focus", "in"], &["focus", "into"]),
    (&["set", "the", "focus", "on"], &["focus", "on"]),
    (&["give", "focus", "to"], &["focus", "on"]),
    (&["move", "the", "focus", "to"], &["focus", "on"]),
    // sign up
    (&["inscribe"], &["sign", "up"]),
    (&["enrol"], &["sign", "up"]),
    (&["enroll"], &["sign", "up"]),
    // continue
    (&["go", "on", "to"], &["continue", "to"]),
    (&["go", "on"], &["continue"]),
    (&["move", "on"], &["continue"]),
    // create: "file / report / log a bug" opens the form that makes one
    // (the article keeps "log in" and "file" alone apart).
    (&["raise"], &["create"]),
    // "set up X as a new payee": makes a thing (a lone "set" fills).
    (&["set", "up"], &["create"]),
    (&["file", "a"], &["create", "a"]),
    (&["file", "an"], &["create", "an"]),
    (&["report", "a"], &["create", "a"]),
    (&["report", "an"], &["create", "an"]),
    (&["log", "a"], &["create", "a"]),
    (&["log", "an"], &["create", "an"]),
    // read and answer
    (&["say", "me"], &["tell", "me"]),
    (&["show", "me"], &["tell", "me"]),
    // wait until
    (&["wait", "that"], &["wait", "until"]),
    (&["wait", "till"], &["wait", "until"]),
    // accept
    (&["agree", "to"], &["agree", "to"]),
    (&["agree"], &["accept"]),
    (&["yes", "to"], &["accept"]),
    // find a record (a booking, an order) to see or change it
    (&["pull", "up"], &["find"]),
    (&["bring", "up"], &["find"]),
    // submit something one hands in: "send in my reading / a claim" (the
    // determiner keeps "send in the chat" a message)
    (&["send", "in", "my"], &["submit", "my"]),
    (&["send", "in", "our"], &["submit", "our"]),
    (&["send", "in", "a"], &["submit", "a"]),
    (&["send", "in", "an"], &["submit", "an"]),
    (&["hand", "in"], &["submit"]),
    // choose
    (&["opt", "for"], &["choose"]),
    (&["settle", "on"], &["choose"]),
];

/// Framing before a clause's verb that asks for it without adding to it.
pub const REQUESTS: &[(&[&str], ())] = &[
    (&["i", "want", "to"], ()),
    (&["i", "want", "you", "to"], ()),
    (&["i", "want"], ()),
    (&["i", "need", "to"], ()),
    (&["i", "need", "you", "to"], ()),
    (&["i", "would", "like", "to"], ()),
    (&["i'd", "like", "to"], ()),
    (&["we", "want", "to"], ()),
    (&["we", "need", "to"], ()),
    (&["we'd", "like", "to"], ()),
    (&["can", "you"], ()),
    (&["could", "you"], ()),
    (&["would", "you"], ()),
    (&["will", "you"], ()),
    (&["can", "u"], ()),
    (&["could", "u"], ()),
    (&["can", "you", "please"], ()),
    (&["could", "you", "please"], ()),
    (&["let's"], ()),
    (&["lets"], ()),
    (&["let", "us"], ()),
    (&["you", "can"], ()),
    (&["you", "could"], ()),
    (&["go", "ahead", "and"], ()),
    (&["help", "me"], ()),
];

/// Verbs that say "do the action this noun names": "do the login".
pub const LIGHT_VERBS: &[&str] = &["do", "make", "perform", "run", "start"];

/// Nouns of verbs, after a light verb → the verb phrase.
pub const NOMINALS: &[(&[&str], &[&str])] = &[
    (&["login"], &["log", "in"]),
    (&["log-in"], &["log", "in"]),
    (&["log", "in"], &["log", "in"]),
    (&["signup"], &["sign", "up"]),
    (&["sign-up"], &["sign", "up"]),
    (&["registration"], &["sign", "up"]),
    (&["search"], &["search", "for"]),
    (&["download"], &["download"]),
    (&["booking"], &["book"]),
    (&["reservation"], &["book"]),
    (&["purchase"], &["buy"]),
    (&["payment"], &["pay"]),
    (&["subscription"], &["subscribe"]),
    (&["deletion"], &["delete"]),
    (&["removal"], &["remove"]),
    (&["checkout"], &["check", "out"]),
    (&["export"], &["export"]),
];

/// Verbs whose particle may follow the object: "switch X on".
pub const TOGGLE_VERBS: &[&str] = &["switch", "turn", "put", "set", "toggle", "flip"];

/// Roles whose verb may come after its object ("INV-2043, download").
pub const OBJECT_FIRST: &[Verb] = &[
    Verb::Click,
    Verb::Select,
    Verb::Unselect,
    Verb::Find,
    Verb::Expand,
];

/// A verb's noun ending a heading ("catalogue search:", "weekly offers
/// signup:") → the verb phrase and the word that joins what follows.
pub const OBJECT_NOUNS: &[(&str, (&[&str], &str))] = &[
    ("search", (&["search"], "for")),
    ("signup", (&["sign", "up", "for"], "with")),
    ("sign-up", (&["sign", "up", "for"], "with")),
    ("subscription", (&["sign", "up", "for"], "with")),
];

/// Words standing for something said before.
pub const PRONOUNS: &[&str] = &["it", "them", "her", "him", "one"];

/// Question words and auxiliaries at a question's start.
pub const ASKING: &[&str] = &[
    "how", "much", "many", "what", "when", "where", "which", "who", "is", "are", "was", "were",
    "do", "does", "did", "have", "has", "will",
];

/// Subject pronouns after them.
pub const SUBJECTS: &[&str] = &["i", "we", "they", "you", "he", "she", "it"];

/// A subject and its verb in one word: a statement, not a request.
pub const SUBJECT_CONTRACTIONS: &[&str] = &[
    "i'm", "i've", "i'd", "we're", "we've", "they're", "they've", "he's", "she's",
];

/// Finite verbs (besides any word ending in "-ed") that make a clause a
/// statement of what is or happened: "Ana Ruiz sent me three files", "the
/// printer works again", "we don't use it".
pub const STATEMENT_VERBS: &[&str] = &[
    "is", "are", "was", "were", "has", "have", "had", "do", "does", "did", "don't", "doesn't",
    "didn't", "isn't", "aren't", "wasn't", "weren't", "can't", "won't", "sent", "left", "got",
    "gets", "get", "went", "goes", "came", "comes", "made", "paid", "works", "work", "drive",
    "drives", "use", "uses", "keep", "keeps", "broke", "found", "told", "said", "wrote", "bought",
    "sold", "lost",
];

/// Tokens standing alone that separate items as a comma does.
pub const SEPARATORS: &[&str] = &["/", "|"];

/// Framing that wants a thing rather than asks for an action: before a
/// noun phrase ("I want the least expensive plan") it chooses it.
pub const DESIRES: &[(&[&str], ())] = &[
    (&["i", "want"], ()),
    (&["i'd", "like"], ()),
    (&["i", "would", "like"], ()),
    (&["i'll", "have"], ()),
    (&["i'll", "take"], ()),
    (&["we'll", "have"], ()),
    (&["we'll", "take"], ()),
];

/// A speaker naming themselves: "I'm Maya Lin" gives the name.
pub const SELF_NAMING: &[(&[&str], ())] = &[
    (&["i'm"], ()),
    (&["i", "am"], ()),
    (&["my", "name's"], ()),
    (&["this", "is"], ()),
];

/// Words that make the next one the owner's: "make X my recovery address".
pub const POSSESSIVES: &[&str] = &["my", "our"];

/// A word that starts the next step when a verb follows it ("…, after go
/// to checkout"): said for "then" in many learners' English.
pub const THEN_BEFORE_VERB: &[(&[&str], ())] = &[
    (&["after"], ()),
    (&["after", "that"], ()),
    (&["after", "this"], ()),
    (&["afterwards"], ()),
    (&["next"], ()),
];

/// Verbs of filling said with the field first: "fill both fields with X".
pub const FILL_WITH: &[&str] = &["fill", "populate"];
