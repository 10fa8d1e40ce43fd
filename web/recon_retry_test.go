package web

import (
	"encoding/json"
	"sync"
	"testing"
	"time"

	"knightwatch/live"
	"knightwatch/play"

	"knightwatch/recon"
	"knightwatch/store"
)

// reconActions counts the actions (senses and moves of both sides) in a
// stored Reconnaissance Chess record.
func (e *testEnv) reconActions(id string) (int, *store.ReconGame) {
	e.t.Helper()
	rec, err := e.store.Games().GetReconGame(id)
	if err != nil {
		e.t.Fatal(err)
	}
	if rec.History == "" {
		return 0, rec
	}
	h, err := recon.UnmarshalHistory([]byte(rec.History))
	if err != nil {
		e.t.Fatal(err)
	}
	n := 0
	for c := range h.Senses {
		n += len(h.Senses[c]) + len(h.RequestedMoves[c])
	}
	return n, rec
}

// noticeText is the text of a notice frame, or "".
func noticeText(f reconFrame) string {
	if f.Type != "notice" {
		return ""
	}
	var n struct{ Text string }
	json.Unmarshal(f.Raw, &n)
	return n.Text
}

// reconToBotTurn starts a new game against the random bot (5+3, the
// person White) and plays the person's first turn (sense e7, move e2e4),
// so that it is the bot's.
func (e *testEnv) reconToBotTurn() (*wsConn, string) {
	e.t.Helper()
	c := e.browser()
	id := e.newRecon(c, "white", "random", "5+3")
	w := e.mustDial(c, id)
	w.reconWait("state", nil, isState)
	w.send(`{"type":"sense","square":"e7","seq":0}`)
	w.reconWait("move phase", nil, func(f reconFrame) bool { return isState(f) && f.State.Phase == "move" })
	w.send(`{"type":"move","move":"e2e4","seq":1}`)
	return w, id
}

func (w *wsConn) reconSync() *play.ReconState {
	w.t.Helper()
	w.send(`{"type":"sync"}`)
	return w.reconWait("state", nil, isState).State
}

// The bot's sense or move that the database refuses is kept and saved by
// itself once the database takes writes again: meanwhile the person is
// told in words, the state says saving, the clocks stand still and the
// person cannot act; afterwards the game goes on. Before, the room
// dropped the action and asked the bot again at once, in a loop, with no
// word to the person.
func TestReconBotActionSaveRetried(t *testing.T) {
	for _, tc := range []struct {
		name    string
		phase   recon.Phase
		pending int // actions saved while the bot's waits
	}{
		{"sense", recon.PhaseSense, 2},
		{"move", recon.PhaseMove, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var fault *dbFault // set before the bot's first action
			var once sync.Once
			botAction := func(_ string, ph recon.Phase) {
				if ph == tc.phase {
					once.Do(func() { fault.set(true) })
				}
			}
			e := newEnv(t, envOpts{saveRetryFirst: 20 * time.Millisecond, saveRetryMax: 100 * time.Millisecond,
				hooks: play.Hooks{BotAction: botAction}})
			fault = newDBFault(t, e)
			w, id := e.reconToBotTurn()

			n := w.reconWait("notice", nil, func(f reconFrame) bool { return f.Type == "notice" })
			if got := noticeText(n); got != play.ReconBotUnsavedNotice {
				t.Errorf("notice %q", got)
			}
			st := w.reconSync()
			// The person's state counts the person's two actions only: the
			// bot's sense, saved or not, is told when its turn ends.
			if st.Seq != 2 || st.Phase != "waiting" || !st.Saving || st.Clock == nil || st.Clock.Running {
				t.Fatalf("while the server cannot save: seq %d phase %s saving %v clock %+v", st.Seq, st.Phase, st.Saving, st.Clock)
			}
			mine := st.Clock.Mine
			// The person cannot act meanwhile.
			w.send(map[string]any{"type": "sense", "square": "e5", "seq": st.Seq})
			if f := w.reconWait("error", nil, func(f reconFrame) bool { return f.Type == "error" }); f.Code != play.CodeNotYourTurn {
				t.Errorf("sense while saving: %s", f.Raw)
			}
			// time itself is what is tested: while the server cannot save, the clocks stand still and nothing more is saved
			time.Sleep(300 * time.Millisecond)
			if k, _ := e.reconActions(id); k != tc.pending {
				t.Fatalf("%d actions saved, want %d", k, tc.pending)
			}

			fault.set(false)
			var again bool
			st = w.reconWait("the bot's move", func(f reconFrame) {
				again = again || noticeText(f) == play.SavedAgainNotice
			}, func(f reconFrame) bool { return isState(f) && f.State.Seq == 4 }).State
			if !again {
				t.Error("no notice that the server can save again")
			}
			if st.Phase != "sense" || st.Saving || !st.Clock.Running {
				t.Fatalf("after saving: phase %s saving %v clock %+v", st.Phase, st.Saving, st.Clock)
			}
			if st.Clock.Mine < mine-50 {
				t.Errorf("the person's clock ran while the server could not save: %d then %d ms", mine, st.Clock.Mine)
			}
			k, rec := e.reconActions(id)
			if k != 4 {
				t.Fatalf("%d actions saved, want 4", k)
			}
			// The bot was not charged for the server's wait (300 ms and more).
			if want := rec.ClockInitialMS + rec.ClockIncrementMS - 200; rec.BlackMS < want {
				t.Errorf("the bot's clock %d ms, want at least %d", rec.BlackMS, want)
			}
			// And the game goes on.
			w.send(`{"type":"sense","square":"e5","seq":4}`)
			w.reconWait("move phase", nil, func(f reconFrame) bool { return isState(f) && f.State.Phase == "move" && f.State.Seq == 5 })
		})
	}
}

// A flag fall the database refuses is saved later; meanwhile the game is
// not shown as over (nor its true board), the person is told in words and
// cannot act, and once saved the game is over on time.
func TestReconFlagSaveRetried(t *testing.T) {
	e := newEnv(t, envOpts{saveRetryFirst: 20 * time.Millisecond, saveRetryMax: 100 * time.Millisecond})
	fault := newDBFault(t, e)
	c := e.browser()
	id := e.newRecon(c, "white", "random", "5+3")
	rec, err := e.store.Games().GetReconGame(id)
	if err != nil {
		t.Fatal(err)
	}
	rec.WhiteMS = 150
	if err := e.store.Games().SaveReconGame(rec); err != nil {
		t.Fatal(err)
	}
	fault.set(true)
	w := e.mustDial(c, id)
	n := w.reconWait("notice", nil, func(f reconFrame) bool { return f.Type == "notice" })
	if got := noticeText(n); got != play.FlagUnsavedNotice {
		t.Errorf("notice %q", got)
	}
	st := w.reconSync()
	if st.Status != "playing" || st.Phase == "over" || st.TrueFEN != "" || !st.Saving || st.Clock.Running || st.Clock.Mine != 0 {
		t.Fatalf("while the server cannot save: %+v", st)
	}
	w.send(`{"type":"sense","square":"e7","seq":0}`)
	if f := w.reconWait("error", nil, func(f reconFrame) bool { return f.Type == "error" }); f.Code != play.CodeServer {
		t.Errorf("sense while the flag waits to be saved: %s", f.Raw)
	}
	fault.set(false)
	st = w.reconWait("over", nil, func(f reconFrame) bool { return isState(f) && f.State.Status == "over" }).State
	if st.Result != "0-1" || st.Reason != "TIMEOUT" || st.Saving {
		t.Fatalf("after saving: %s %s saving %v", st.Result, st.Reason, st.Saving)
	}
	if _, r := e.reconActions(id); r.Status != store.StatusOver || r.Result != "0-1" {
		t.Fatalf("row %+v", r)
	}
}

// The person's own actions in a Reconnaissance Chess game fail with a
// clear error in words and change nothing while the server cannot save;
// once it can, the same action works.
func TestReconOwnActionsFailCleanly(t *testing.T) {
	tests := []struct {
		name   string
		before []string // messages sent first, each answered by a state
		msg    string
		text   string
		after  func(f reconFrame) bool // the same action, now saved
	}{
		{"sense", nil, `{"type":"sense","square":"e7","seq":0}`, play.SenseUnsavedText,
			func(f reconFrame) bool { return isState(f) && f.State.Phase == "move" }},
		{"move", []string{`{"type":"sense","square":"e7","seq":0}`}, `{"type":"move","move":"e2e4","seq":1}`, play.MoveUnsavedText,
			func(f reconFrame) bool { return isState(f) && f.State.Seq >= 2 }},
		{"resign", nil, `{"type":"resign"}`, play.ResignUnsavedText,
			func(f reconFrame) bool { return isState(f) && f.State.Status == "over" }},
		{"marker", nil, `{"type":"marker","square":"e5","piece":"bN"}`, play.MarkerUnsavedText,
			func(f reconFrame) bool { return isState(f) && f.State.Markers["e5"] == "bN" }},
		{"rematch", nil, `{"type":"rematch"}`, play.RematchUnsavedText,
			func(f reconFrame) bool { return f.Type == "redirect" }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, envOpts{})
			fault := newDBFault(t, e)
			c := e.browser()
			id := e.newRecon(c, "white", "random", "5+3")
			w := e.mustDial(c, id)
			w.reconWait("state", nil, isState)
			for _, m := range tc.before {
				w.send(m)
				w.reconWait("state", nil, isState)
			}
			k, before := e.reconActions(id)
			st := w.reconSync()
			fault.set(true)
			w.send(tc.msg)
			f := w.reconWait("error", nil, func(f reconFrame) bool { return f.Type == "error" })
			var m struct{ Code, Message string }
			json.Unmarshal(f.Raw, &m)
			if m.Code != play.CodeServer || m.Message != tc.text {
				t.Errorf("error %s", f.Raw)
			}
			after := w.reconSync()
			if after.Seq != st.Seq || after.Phase != st.Phase || after.Status != "playing" || len(after.Markers) != len(st.Markers) || after.Saving {
				t.Errorf("state after the refusal: %+v", after)
			}
			if k2, r := e.reconActions(id); k2 != k || r.Status != before.Status || r.Markers != before.Markers {
				t.Errorf("row changed: %d actions, %+v", k2, r)
			}
			fault.set(false)
			w.send(tc.msg)
			w.reconWait("the action, saved", nil, tc.after)
		})
	}
}

// Resigning while the bot's move waits to be saved ends the game by
// resignation and drops the bot's move: it is never saved afterwards.
func TestReconResignDropsPendingBotStep(t *testing.T) {
	var fault *dbFault // set before the bot's first action
	var once sync.Once
	botAction := func(_ string, ph recon.Phase) {
		if ph == recon.PhaseMove {
			once.Do(func() { fault.set(true) })
		}
	}
	e := newEnv(t, envOpts{saveRetryFirst: time.Hour, hooks: play.Hooks{BotAction: botAction}})
	fault = newDBFault(t, e)
	w, id := e.reconToBotTurn()
	w.reconWait("notice", nil, func(f reconFrame) bool { return noticeText(f) == play.ReconBotUnsavedNotice })
	fault.set(false)
	w.send(`{"type":"resign"}`)
	st := w.reconWait("over", nil, func(f reconFrame) bool { return isState(f) && f.State.Status == "over" }).State
	if st.Reason != "RESIGN" || st.Result != "0-1" || st.Saving || st.Seq != 3 {
		t.Fatalf("after resigning: %s %s saving %v seq %d", st.Result, st.Reason, st.Saving, st.Seq)
	}
	pending := false
	e.reg.Get(id).Read(func(_ live.Game, m live.Moment) { pending = m.Saving })
	if pending {
		t.Error("the bot's move still waits to be saved after the resignation")
	}
	if k, r := e.reconActions(id); k != 3 || r.Status != store.StatusOver {
		t.Fatalf("row: %d actions, %+v", k, r)
	}
}
