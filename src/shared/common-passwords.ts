/**
 * A password check both the registration form and the server run (NIST SP 800-63B: refuse passwords
 * from breach corpora, repetitive or sequential characters, and context-specific words). The list holds
 * the most common passwords of public breach lists (lower case); the rules below catch their usual
 * variants (a capital letter, digits or a symbol appended) and whole families a list cannot enumerate.
 */
export const COMMON_PASSWORD_MESSAGE = "This password is too common. Please choose another.";

// biome-ignore format: one compact list
const COMMON_PASSWORDS: readonly string[] = [
  // Ranked by frequency in breach corpora (entries shorter than 8 characters matter as the base of
  // variants such as "monkey123" or "Dragon!").
  "123456", "password", "12345678", "qwerty", "123456789", "12345", "1234", "111111", "1234567", "dragon",
  "123123", "baseball", "abc123", "football", "monkey", "letmein", "696969", "shadow", "master", "666666",
  "qwertyuiop", "123321", "mustang", "1234567890", "michael", "654321", "superman", "1qaz2wsx", "7777777",
  "121212", "000000", "qazwsx", "123qwe", "killer", "trustno1", "jordan", "jennifer", "zxcvbnm", "asdfgh",
  "hunter", "buster", "soccer", "harley", "batman", "andrew", "tigger", "sunshine", "iloveyou", "charlie",
  "robert", "thomas", "hockey", "ranger", "daniel", "starwars", "klaster", "112233", "george", "computer",
  "michelle", "jessica", "pepper", "zxcvbn", "555555", "11111111", "131313", "freedom", "777777", "maggie",
  "159753", "aaaaaa", "ginger", "princess", "joshua", "cheese", "amanda", "summer", "ashley", "nicole",
  "chelsea", "biteme", "matthew", "access", "yankees", "987654321", "dallas", "austin", "thunder", "taylor",
  "matrix", "minecraft", "william", "corvette", "hello", "martin", "heather", "secret", "merlin", "diamond",
  "1234qwer", "gfhjkm", "hammer", "silver", "222222", "88888888", "anthony", "justin", "bailey",
  "q1w2e3r4t5", "patrick", "internet", "scooter", "orange", "golfer", "cookie", "richard", "samantha",
  "bigdog", "guitar", "jackson", "whatever", "mickey", "chicken", "sparky", "snoopy", "maverick", "phoenix",
  "camaro", "peanut", "morgan", "welcome", "falcon", "cowboy", "ferrari", "samsung", "andrea", "smokey",
  "steelers", "joseph", "mercedes", "dakota", "arsenal", "eagles", "melissa", "boomer", "booboo", "spider",
  "nascar", "monster", "tigers", "yellow", "123123123", "gateway", "marina", "diablo", "bulldog",
  "qwer1234", "compaq", "purple", "hardcore", "banana", "junior", "hannah", "123654", "porsche", "lakers",
  "iceman", "money", "cowboys", "987654", "london", "tennis", "999999", "ncc1701", "coffee", "scooby",
  "miller", "boston", "q1w2e3r4", "brandon", "yamaha", "chester", "mother", "forever", "johnny", "edward",
  "333333", "oliver", "redsox", "player", "nikita", "knight", "fender", "barney", "midnight", "please",
  "brandy", "chicago", "badboy", "slayer", "rangers", "charles", "angel", "flower", "rabbit", "wizard",
  "jasper", "rachel", "steven", "winner", "adidas", "victoria", "natasha", "1q2w3e4r", "jasmine", "winter",
  "prince", "marine", "ghbdtn", "fishing", "cocacola", "casper", "james", "232323", "raiders", "888888",
  "marlboro", "gandalf", "asdfasdf", "crystal", "87654321", "12344321", "golden", "8675309", "1q2w3e",
  // Eight characters and longer: refused as they are.
  "password1", "password12", "password123", "password1234", "passw0rd", "p@ssw0rd", "p@ssword", "pa55word",
  "pa$$word", "passwort", "motdepasse", "contrasena", "wachtwoord", "salasana", "iloveyou1", "12345678910",
  "1q2w3e4r5t", "1q2w3e4r5t6y", "1qaz2wsx3edc", "qwerty123", "qwerty12", "qwertyui", "qwerty1234",
  "qwertyuiop123", "zaq12wsx", "zaq1zaq1", "zaq1xsw2", "abcd1234", "abc12345", "1234abcd", "aa123456",
  "a1234567", "a12345678", "11223344", "12341234", "12121212", "123456789a", "1234567a", "asdfghjkl",
  "asdfghjk", "asdf1234", "qwerasdf", "zxcvbnm1", "qazwsxedc", "1qazxsw2", "administrator", "admin123",
  "changeme", "changeit", "default", "letmein1", "welcome1", "welcome123", "trustme", "baseball1",
  "football1", "sunshine1", "princess1", "superman1", "starwars1", "computer1", "internet1", "michael1",
  "charlie1", "jordan23", "babygirl", "butterfly", "liverpool", "manchester", "barcelona", "realmadrid",
  "juventus", "pokemon", "naruto", "fortnite", "spiderman", "superstar", "rockstar", "security",
  "basketball", "elephant", "chocolate", "remember", "together", "december", "november", "september",
  "october", "january", "february", "einstein", "mountain", "dolphins", "scorpion", "christmas",
  "blahblah", "iloveyou2", "loveyou", "lovely", "sweetheart", "beautiful", "friends", "freedom1",
  "qwertyqwerty", "asdasdasd", "qweasdzxc", "1qaz1qaz", "00000000", "99999999", "12312312",
  "147258369", "123698745", "741852963", "963852741", "159357", "1111111111", "0123456789",
  "whatever1", "trustno1!", "google", "facebook", "linkedin", "twitter", "instagram", "youtube", "windows",
  "microsoft", "apple123", "iphone", "samsung1", "letmeinnow", "opensesame", "nopassword", "secret123",
  "mypassword", "yourpassword", "newpassword", "oldpassword", "testpassword", "test1234", "testtest",
  "guest123", "user1234", "login123", "root1234", "toor", "master12", "hello123", "hellohello",
  "helloworld", "qwertz", "qwertzuiop", "azerty", "azertyuiop", "atomize", "atomize123",
];

const COMMON = new Set(COMMON_PASSWORDS);

/** Runs of keys or characters people type as "random": any 4+ characters of these, either way round. */
const SEQUENCES = [
  "abcdefghijklmnopqrstuvwxyz",
  "01234567890",
  "qwertyuiopasdfghjklzxcvbnm",
  "qwertzuiopasdfghjklyxcvbnm",
  "azertyuiopqsdfghjklmwxcvbn",
  "1qaz2wsx3edc4rfv5tgb6yhn7ujm8ik9ol0p",
  "qazwsxedcrfvtgbyhnujmikolp",
  "1q2w3e4r5t6y7u8i9o0p",
  "!@#$%^&*()",
];

const reverse = (s: string) => [...s].reverse().join("");
/** Digits, symbols and spaces: what people put around a common word ("Password1!", "123monkey"). */
const DECORATION = /^[\d\W_]*$/;
const strip = (s: string) => s.replace(/^[\d\W_]+/, "").replace(/[\d\W_]+$/, "");

/** One character, or a unit of up to four, repeated: "aaaaaaaa", "abababab", "12341234". */
const isRepeated = (p: string) => /^(.{1,4})\1+$/.test(p);

function isSequence(p: string): boolean {
  if (p.length < 4) return false;
  return SEQUENCES.some((seq) => seq.includes(p) || reverse(seq).includes(p));
}

/**
 * Whether a password is too common: in the list (whatever its case), one of those with digits or symbols
 * around it, a repeated character or unit, a keyboard or alphabet run, or built from the account's own
 * e-mail address.
 */
export function isCommonPassword(password: string, email?: string): boolean {
  const p = password.toLowerCase();
  if (COMMON.has(p) || isRepeated(p) || isSequence(p)) return true;
  const base = strip(p);
  // Digits and symbols only, and none of the above: a long random number is left to the length rule.
  if (base !== "" && (COMMON.has(base) || isRepeated(base) || isSequence(base))) return true;
  if (!email) return false;
  const address = email.trim().toLowerCase();
  if (p.includes(address)) return true;
  // The local part with only digits or symbols around it ("jane.doe", "janedoe1990!").
  const local = address.split("@")[0] ?? "";
  for (const name of new Set([local, local.replace(/[\W_]+/g, "")])) {
    if (name.length >= 3 && p.includes(name) && DECORATION.test(p.replace(name, ""))) return true;
  }
  return false;
}
