/** What a voice says when previewed without text: a short sentence in its language, English otherwise. */
const SAMPLES: Record<string, string> = {
  en: 'Hello! This is how I sound when I read your text aloud.',
  de: 'Hallo! So klinge ich, wenn ich deinen Text vorlese.',
  fr: 'Bonjour ! Voici ma voix quand je lis votre texte à haute voix.',
  es: '¡Hola! Así sueno cuando leo tu texto en voz alta.',
  it: 'Ciao! Ecco come suono quando leggo ad alta voce il tuo testo.',
  pt: 'Olá! É assim que eu soo quando leio o seu texto em voz alta.',
  nl: 'Hallo! Zo klink ik wanneer ik je tekst voorlees.',
  sv: 'Hej! Så här låter jag när jag läser din text högt.',
  pl: 'Cześć! Tak brzmię, kiedy czytam twój tekst na głos.',
  ru: 'Привет! Так я звучу, когда читаю ваш текст вслух.',
  cs: 'Ahoj! Takhle zním, když čtu tvůj text nahlas.',
  fi: 'Hei! Tältä kuulostan, kun luen tekstisi ääneen.',
  tr: 'Merhaba! Metninizi sesli okurken böyle duyuluyorum.',
  el: 'Γεια σας! Έτσι ακούγομαι όταν διαβάζω το κείμενό σας.',
  ja: 'こんにちは。これが私の声です。',
  zh: '你好！这就是我朗读文字时的声音。',
  hi: 'नमस्ते! जब मैं आपका पाठ पढ़ता हूँ तो मेरी आवाज़ ऐसी होती है।',
  ar: 'مرحبا! هكذا يبدو صوتي عندما أقرأ نصك.',
};

export function sampleSentence(language: string): string {
  const primary = language.split('-')[0]!.toLowerCase();
  return SAMPLES[primary] ?? SAMPLES.en!;
}
