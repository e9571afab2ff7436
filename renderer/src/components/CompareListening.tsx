import { useState } from 'react';
import type { CompareSession } from '../api/contract';
import { takeFileName } from '../lib/compare-export';
import { useApp } from '../store';
import { CompareListeningBar, CompareTextPicker } from './CompareListeningBar';
import { CompareSentences } from './CompareSentences';
import { CompareTakeRow } from './CompareTakeRow';
import { PairwiseRound } from './PairwiseRound';
import { ShortcutHelp } from './ShortcutHelp';
import { useCompareKeys } from './use-compare-keys';
import { useListenedTakes } from './use-listened-takes';
import { useTakePlayers } from './use-take-players';

/**
 * Listening to a session, one text at a time: its sentences, its takes stacked. Switching takes
 * keeps the sentence, not the second (voices speak at different speeds); clicking a waveform plays
 * that take from where it was clicked.
 */
export function CompareListening({ session }: { session: CompareSession }) {
  const [textIndex, setTextIndex] = useState(0);
  const [help, setHelp] = useState(false);
  const [ratingMode, setRatingMode] = useState(false);
  const [pairwise, setPairwise] = useState(false);
  const text = Math.min(textIndex, session.texts.length - 1);
  const { listed, hidden, target, played, nameOf, timed } = useListenedTakes(session, text);
  const { active, activeTake, activeIndex, sentence, loop, setLoop, register, playAt, toggle, seek, move } = useTakePlayers(
    listed,
    played,
    timed?.timings?.sentences.length ?? 0,
  );

  useCompareKeys(
    {
      togglePlay: () => listed[activeIndex] && toggle(listed[activeIndex].take_id),
      take: (n) => n < listed.length && move(n, sentence),
      sentence: (step) => move(activeIndex, sentence + step),
      voice: (step) => move(activeIndex + step, sentence),
      rate: (stars) => listed[activeIndex] && useApp.getState().rateTake(listed[activeIndex].take_id, stars === 0 ? null : stars),
      note: () => listed[activeIndex] && document.getElementById(`note-${listed[activeIndex].take_id}`)?.focus(),
      loop: () => setLoop((on) => !on),
      help: () => setHelp((on) => !on),
      rating: setRatingMode,
    },
    !pairwise && !help,
  );

  return (
    <div className="compare-listening">
      {session.texts.length > 1 && <CompareTextPicker texts={session.texts} text={text} onChange={setTextIndex} />}
      <CompareListeningBar
        target={target}
        loop={loop}
        setLoop={setLoop}
        pairwise={pairwise}
        setPairwise={setPairwise}
        onHelp={() => setHelp(true)}
        rating={ratingMode ? (activeTake ? nameOf(activeTake.take_id) : 'the take') : null}
        hidden={hidden}
      />
      {pairwise && <PairwiseRound session={session} takes={listed} nameOf={nameOf} onPlay={(id) => playAt(id, sentence)} />}
      {timed && (
        <CompareSentences
          timings={timed.timings!}
          current={sentence}
          activeTake={activeTake}
          name={activeTake ? nameOf(activeTake.take_id) : ''}
          onPlay={(n) => move(activeIndex, n)}
        />
      )}
      <ol className="takes" aria-label="Takes">
        {listed.map((take, position) => (
          <CompareTakeRow
            key={take.take_id}
            take={take}
            position={position}
            name={nameOf(take.take_id)}
            hidden={hidden}
            played={played.get(take.take_id)}
            active={active === take.take_id}
            fileName={takeFileName(session, nameOf(take.take_id))}
            onPlay={toggle}
            onSeek={seek}
            register={register}
          />
        ))}
      </ol>
      {help && <ShortcutHelp onClose={() => setHelp(false)} />}
    </div>
  );
}
