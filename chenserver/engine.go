package chenserver

import (
	"context"
	"time"

	"knightwatch/engine"
	"knightwatch/game"
)

// NewEngineThinker returns the Thinker behind `think`: Knightwatch's engine
// at full strength with a hashMB-megabyte transposition table. The session
// lock guarantees the engine is used by one command at a time, as it
// requires.
func NewEngineThinker(hashMB int) Thinker {
	return &engineThinker{eng: engine.New(engine.Options{HashMB: hashMB})}
}

type engineThinker struct{ eng *engine.Engine }

func (e *engineThinker) NewGame() { e.eng.NewGame() }

func (e *engineThinker) Think(ctx context.Context, pos *game.Position, history []uint64, moveTime time.Duration) game.Move {
	return e.eng.Search(ctx, pos, history, engine.Limits{MoveTime: moveTime}, nil).Move
}
