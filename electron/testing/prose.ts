/** Plain prose of about `chars` characters, in sentences. */
export function prose(chars: number): string {
  const sentences = [
    'The river wound slowly through the valley, carrying leaves from the autumn trees.',
    'She opened the old book and read the first page aloud to the quiet room.',
    'Nobody expected the storm to arrive so early, yet the sky had warned them all morning.',
    'In the evening the lamps were lit one by one along the narrow street.',
  ];
  let text = '';
  for (let i = 0; text.length < chars; i++) text += (text ? ' ' : '') + sentences[i % sentences.length];
  return text.slice(0, chars);
}
