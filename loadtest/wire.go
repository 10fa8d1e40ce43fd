package loadtest

// wire is the part of any server → browser message (web/PROTOCOL.md) the
// players read: a chess state, a recon_state, an error, a redirect.
type wire struct {
	Type string `json:"type"`
	// state
	Ply    int        `json:"ply"`
	Turn   string     `json:"turn"`
	Human  string     `json:"human"`
	Status string     `json:"status"`
	Moves  []wireMove `json:"moves"`
	Legal  []wireMove `json:"legal"`
	// recon_state (Human and Status as above)
	Phase       string      `json:"phase"`
	Seq         int         `json:"seq"`
	Turns       []reconTurn `json:"turns"`
	MoveActions []wireMove  `json:"moveActions"`
	// error
	Code string `json:"code"`
	// redirect
	URL string `json:"url"`
}

type wireMove struct {
	UCI string `json:"uci"`
}

// reconTurn is one of the person's turns in a recon_state.
type reconTurn struct {
	Sensed    bool   `json:"sensed"`
	Sense     string `json:"sense"`
	Moved     bool   `json:"moved"`
	Requested string `json:"requested"`
}

func ucis(ms []wireMove) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.UCI
	}
	return out
}
