import { describe, expect, it } from 'vitest';
import { sentenceBounds, sentencesOf } from './sentences';

/** Each row: a language, a text, and its sentences as a narrator reads them. */
const TABLE: [language: string, text: string, sentences: string[]][] = [
  // English: titles, initials, dotted short forms, numbers, ellipses, quotations
  [
    'en',
    'Dr. Watson met Mr. Holmes on St. James St. today. They talked.',
    ['Dr. Watson met Mr. Holmes on St. James St. today.', 'They talked.'],
  ],
  ['en', 'Mrs. Hudson, e.g. the landlady, i.e. a saint. Then tea.', ['Mrs. Hudson, e.g. the landlady, i.e. a saint.', 'Then tea.']],
  ['en', 'J. R. R. Tolkien wrote it. He died in 1973.', ['J. R. R. Tolkien wrote it.', 'He died in 1973.']],
  ['en', 'The U.S. Army came. Then peace.', ['The U.S. Army came.', 'Then peace.']],
  ['en', 'It cost 3.5 shillings. See No. 5 and Fig. 3 too. Fine.', ['It cost 3.5 shillings.', 'See No. 5 and Fig. 3 too.', 'Fine.']],
  ['en', 'Wait... what? He paused... Then spoke.', ['Wait... what?', 'He paused...', 'Then spoke.']],
  ['en', '“Where are you going?” she asked. “Home!” He left.', ['“Where are you going?” she asked.', '“Home!”', 'He left.']],
  ['en', 'Prof. Moriarty and Col. Moran vs. Capt. Hastings. End.', ['Prof. Moriarty and Col. Moran vs. Capt. Hastings.', 'End.']],
  ['en', 'DR. JEKYLL AND MR. HYDE. A story.', ['DR. JEKYLL AND MR. HYDE.', 'A story.']],
  [
    'en',
    'He said no. Then he left. It was the end of Jan. The cold came.',
    ['He said no.', 'Then he left.', 'It was the end of Jan.', 'The cold came.'],
  ],
  // a line break ends a sentence (verse, SSML's <s>), whatever stands before it
  ['en', 'Dr.\nWatson came.\nHe sat', ['Dr.', 'Watson came.', 'He sat']],
  // German: abbreviations, initials, ordinals before months and after articles
  [
    'de',
    'Dr. Müller kam z. B. um 3 Uhr. Hr. Meier u. a. blieben. Er ging am 3. Mai. Im 19. Jahrhundert war es so. Er kam 1990. Dann ging er.',
    [
      'Dr. Müller kam z. B. um 3 Uhr.',
      'Hr. Meier u. a. blieben.',
      'Er ging am 3. Mai.',
      'Im 19. Jahrhundert war es so.',
      'Er kam 1990.',
      'Dann ging er.',
    ],
  ],
  ['de-AT', 'Siehe S. 12 und Nr. 4. Gut.', ['Siehe S. 12 und Nr. 4.', 'Gut.']],
  // French: M., Mme, guillemets with their spaces
  [
    'fr',
    'M. Dupont et Mme Durand sont là. « Stop ! » dit-il. Puis il partit.',
    ['M. Dupont et Mme Durand sont là.', '« Stop ! » dit-il.', 'Puis il partit.'],
  ],
  ['fr', 'Il dit : « Je pars. » Puis il partit.', ['Il dit : « Je pars. »', 'Puis il partit.']],
  // Spanish: Sr., Sra., EE. UU., an inverted question with its dash
  [
    'es',
    'El Sr. García y la Sra. López llegaron. Vive en EE. UU. ahora. ¿Qué? —dijo él. Bien.',
    ['El Sr. García y la Sra. López llegaron.', 'Vive en EE. UU. ahora.', '¿Qué? —dijo él.', 'Bien.'],
  ],
  [
    'it',
    'Il Sig. Rossi e il Dott. Bianchi arrivano. La Dott.ssa Neri no. Ciao.',
    ['Il Sig. Rossi e il Dott. Bianchi arrivano.', 'La Dott.ssa Neri no.', 'Ciao.'],
  ],
  ['pt-BR', 'O Sr. Silva e a Sra. Costa chegaram. Bom dia.', ['O Sr. Silva e a Sra. Costa chegaram.', 'Bom dia.']],
  ['nl', 'Dhr. Jansen en mevr. de Vries kwamen, o.a. Piet. Goed.', ['Dhr. Jansen en mevr. de Vries kwamen, o.a. Piet.', 'Goed.']],
  ['ca', 'El Sr. Puig i la Sra. Vila. Bé.', ['El Sr. Puig i la Sra. Vila.', 'Bé.']],
  ['sv', 'Dr. Berg kom. Prof. Ek gick.', ['Dr. Berg kom.', 'Prof. Ek gick.']],
  ['pl', 'Prof. Nowak i dr. Kowalski przyszli. Dobrze.', ['Prof. Nowak i dr. Kowalski przyszli.', 'Dobrze.']],
  ['cs', 'Ing. Novák a MUDr. Svoboda přišli. Dobře.', ['Ing. Novák a MUDr. Svoboda přišli.', 'Dobře.']],
  // Cyrillic initials and titles
  ['ru', 'А. С. Пушкин родился в Москве. Проф. Иванов пришёл.', ['А. С. Пушкин родился в Москве.', 'Проф. Иванов пришёл.']],
  ['el', 'Ο Δρ. Παπαδόπουλος ήρθε. Καλά.', ['Ο Δρ. Παπαδόπουλος ήρθε.', 'Καλά.']],
  // a language with no list of its own still keeps initials and Dr.
  ['eo', 'D-ro Zamenhof kaj L. L. Zamenhof. Bone.', ['D-ro Zamenhof kaj L. L. Zamenhof.', 'Bone.']],
  // scripts without spaces
  ['ja', '今日は晴れです。明日は？はい！', ['今日は晴れです。', '明日は？', 'はい！']],
  ['zh', '他来了。你呢？', ['他来了。', '你呢？']],
  // tags that are not BCP 47 fall back to the root rules
  ['en-US-nyc', 'Mr. Smith came. Good.', ['Mr. Smith came.', 'Good.']],
  ['', 'One. Two.', ['One.', 'Two.']],
];

describe('sentenceBounds', () => {
  it.each(TABLE)('%s: %s', (language, text, sentences) => {
    expect(sentencesOf(text, language)).toEqual(sentences);
  });

  it('gives bounds in the text without the whitespace around each sentence', () => {
    const text = '  Dr. Who  came.\t\nThen   left.  ';
    expect(sentenceBounds(text, 'en').map(([start, end]) => text.slice(start, end))).toEqual(['Dr. Who  came.', 'Then   left.']);
    expect(sentenceBounds('   \n ', 'en')).toEqual([]);
  });

  it('keeps an abbreviation together across the segmenter’s 4,000-character windows', () => {
    const sentence = 'Dr. Watson met Mr. Holmes and J. R. R. Tolkien. ';
    const text = sentence.repeat(400);
    const found = sentencesOf(text, 'en');
    expect(found).toHaveLength(400);
    expect(new Set(found)).toEqual(new Set([sentence.trim()]));
  });

  it('runs in linear time on 100,000-character lines built against its rules', () => {
    const lines = [
      'Dr. '.repeat(25_000), // every boundary dropped: one sentence
      'J. '.repeat(33_333),
      'a.'.repeat(50_000), // one dotted word
      `${'x'.repeat(99_998)}.`,
      '.'.repeat(100_000),
      `“Who?” ${'he asked? '.repeat(9_999)}`,
      ' '.repeat(100_000),
    ];
    for (const line of lines) {
      const before = process.cpuUsage();
      sentenceBounds(line, 'de');
      const { user, system } = process.cpuUsage(before);
      expect((user + system) / 1000).toBeLessThan(1000);
    }
  });
});
