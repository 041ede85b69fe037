// finnlp/synonyms ships no types. Its dictionary is a WordNet-derived table keyed by word, then
// by part of speech (n, v, a, s, r). We read the table directly: the package's lookup function
// scans the whole table for unknown words, which is too slow per request.
declare module "synonyms/dictionary.js" {
  const dictionary: Record<string, Record<string, string[]> | undefined>;
  export default dictionary;
}
