package tune

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"

	"knightwatch/engine/nnue"
	"knightwatch/game"
)

// NetworkScale is the sigmoid scale in centipawns through which the
// network trainer compares the network's score with its labels, and turns
// a position's search score into a label (NetworkSets). 160 matches the
// Texel tuner's fitted scale (K 1.1).
const NetworkScale = 160

// TrainingSet holds positions reduced to White's-view features, with the
// expected result for the side to move: what Train learns from.
type TrainingSet struct {
	feats  []uint16 // every position's features, White's view, in a row
	start  []uint32 // position i's features are feats[start[i]:start[i+1]]
	stm    []game.Color
	target []float32
}

// Len is the number of positions.
func (ts *TrainingSet) Len() int { return len(ts.stm) }

// Add appends p with whiteTarget, the expected result from White's view
// (0..1).
func (ts *TrainingSet) Add(p *game.Position, whiteTarget float64) {
	if len(ts.start) == 0 {
		ts.start = append(ts.start, 0)
	}
	for c := game.White; c <= game.Black; c++ {
		for pt := game.Pawn; pt <= game.King; pt++ {
			for b := p.Pieces(c, pt); b != 0; {
				ts.feats = append(ts.feats, uint16(nnue.Feature(game.White, c, pt, b.PopFirst())))
			}
		}
	}
	ts.start = append(ts.start, uint32(len(ts.feats)))
	t := whiteTarget
	if p.Side() == game.Black {
		t = 1 - t
	}
	ts.stm = append(ts.stm, p.Side())
	ts.target = append(ts.target, float32(t))
}

// NetworkSets turns labelled positions into the network trainer's
// training and held-out sets. A position with a search score is labelled
// lambda·result + (1-lambda)·Sigmoid(score, NetworkScale), one without
// keeps its result. With validShare above 0 every n-th position, n =
// round(1/validShare) but at least 2, is held out. scored counts the
// positions with a search score.
func NetworkSets(data []TrainingPosition, lambda, validShare float64) (train, valid *TrainingSet, scored int, err error) {
	train, valid = new(TrainingSet), new(TrainingSet)
	every := 0 // every n-th position is held out
	if validShare > 0 {
		every = max(int(math.Round(1/validShare)), 2)
	}
	for i, tp := range data {
		p, err := game.ParseFEN(tp.FEN)
		if err != nil {
			return nil, nil, 0, err
		}
		label := tp.Result
		if tp.Scored {
			scored++
			label = lambda*tp.Result + (1-lambda)*Sigmoid(float64(tp.Score), NetworkScale)
		}
		if every > 0 && i%every == every-1 {
			valid.Add(p, label)
		} else {
			train.Add(p, label)
		}
	}
	return train, valid, scored, nil
}

// TrainOptions configure Train.
type TrainOptions struct {
	Epochs    int     // passes over the training set
	BatchSize int     // positions per gradient step; 0 means 16384
	LR        float64 // Adam step size; 0 means 0.001
	Seed      uint64
	Threads   int // 0 means GOMAXPROCS
}

// floatNet is the network in training: float weights, the same layout as
// nnue.Network.
type floatNet struct {
	w1 []float32 // [feature*Hidden + neuron]
	b1 []float32
	w2 []float32
	b2 []float32 // one value, a slice so that it is handled like the rest
}

const hidden = nnue.Hidden

func newFloatNet() *floatNet {
	return &floatNet{
		w1: make([]float32, nnue.Inputs*hidden),
		b1: make([]float32, hidden),
		w2: make([]float32, 2*hidden),
		b2: make([]float32, 1),
	}
}

func (n *floatNet) params() [][]float32 { return [][]float32{n.w1, n.b1, n.w2, n.b2} }

// Clipping keeps the quantized weights in range: the first layer's within
// ±maxW1·QA (32 pieces plus the bias fit in an int16), the output's well
// inside int16 at QB.
const (
	maxW1 = 1.98
	maxW2 = 7.9
)

// blackFeature turns a White's-view feature into Black's view.
func blackFeature(f uint16) int { return nnue.FlipFeature(int(f)) }

// forward computes the hidden sums of sample i into acc (two rows of
// Hidden, side to move first) and returns the output.
func (n *floatNet) forward(ts *TrainingSet, i int, acc *[2][hidden]float32) float32 {
	us, them := 0, 1
	if ts.stm[i] == game.Black {
		us, them = 1, 0
	}
	acc[0] = [hidden]float32(n.b1)
	acc[1] = [hidden]float32(n.b1)
	for _, f := range ts.feats[ts.start[i]:ts.start[i+1]] {
		fw := int(f) * hidden
		fb := blackFeature(f) * hidden
		ww := (*[hidden]float32)(n.w1[fw : fw+hidden])
		wb := (*[hidden]float32)(n.w1[fb : fb+hidden])
		for j := range hidden {
			acc[us][j] += ww[j]
			acc[them][j] += wb[j]
		}
	}
	out := n.b2[0]
	for side := range 2 {
		w := n.w2[side*hidden : side*hidden+hidden]
		for j := range hidden {
			out += clamp01(acc[side][j]) * w[j]
		}
	}
	return out
}

func clamp01(x float32) float32 { return min(max(x, 0), 1) }

// outToProb turns the network's output into Sigmoid's argument at scale
// 1: the output is in units of OutputScale centipawns.
const outToProb = nnue.OutputScale / float32(NetworkScale)

// prob is the expected result of a network output.
func prob(out float32) float32 { return float32(Sigmoid(float64(out*outToProb), 1)) }

// batchGrad adds the gradient of the squared error over samples idx to g
// and returns the summed error.
func (n *floatNet) batchGrad(ts *TrainingSet, idx []int, g *floatNet) float64 {
	var acc [2][hidden]float32
	var loss float64
	for _, i := range idx {
		out := n.forward(ts, i, &acc)
		p := prob(out)
		e := p - ts.target[i]
		loss += float64(e * e)
		d := 2 * e * p * (1 - p) * outToProb // d loss / d out
		g.b2[0] += d
		var dh [2][hidden]float32
		for side := range 2 {
			w := n.w2[side*hidden : side*hidden+hidden]
			gw := g.w2[side*hidden : side*hidden+hidden]
			for j := range hidden {
				a := acc[side][j]
				gw[j] += d * clamp01(a)
				if a > 0 && a < 1 {
					dh[side][j] = d * w[j]
				}
			}
		}
		us, them := 0, 1
		if ts.stm[i] == game.Black {
			us, them = 1, 0
		}
		for j := range hidden {
			g.b1[j] += dh[0][j] + dh[1][j]
		}
		for _, f := range ts.feats[ts.start[i]:ts.start[i+1]] {
			fw := int(f) * hidden
			fb := blackFeature(f) * hidden
			gww := (*[hidden]float32)(g.w1[fw : fw+hidden])
			gwb := (*[hidden]float32)(g.w1[fb : fb+hidden])
			for j := range hidden {
				gww[j] += dh[us][j]
				gwb[j] += dh[them][j]
			}
		}
	}
	return loss
}

// loss is the mean squared error of the float network over ts. The parts'
// sums are added in the parts' order, so the figure does not depend on
// scheduling.
func (n *floatNet) loss(ts *TrainingSet, threads int) float64 {
	chunk := (ts.Len() + threads - 1) / threads
	sums := make([]float64, threads)
	var wg sync.WaitGroup
	for t := range threads {
		lo, hi := min(t*chunk, ts.Len()), min((t+1)*chunk, ts.Len())
		wg.Add(1)
		go func() {
			defer wg.Done()
			var acc [2][hidden]float32
			var s float64
			for i := lo; i < hi; i++ {
				e := prob(n.forward(ts, i, &acc)) - ts.target[i]
				s += float64(e * e)
			}
			sums[t] = s
		}()
	}
	wg.Wait()
	var total float64
	for _, s := range sums {
		total += s
	}
	return total / float64(max(ts.Len(), 1))
}

// Train fits a network to train by Adam on the squared error between
// Sigmoid(score, NetworkScale) and the targets, reporting after each epoch
// the mean error on train and on valid (which it does not learn from; it
// may be empty, then the held-out error is NaN). It stops early, returning
// the network so far, when ctx ends.
func Train(ctx context.Context, train, valid *TrainingSet, o TrainOptions, progress func(epoch int, trainErr, validErr float64)) (*nnue.Network, error) {
	if train.Len() == 0 {
		return nil, errors.New("tune: no training positions")
	}
	if o.BatchSize <= 0 {
		o.BatchSize = 16384
	}
	if o.LR <= 0 {
		o.LR = 0.001
	}
	if o.Threads <= 0 {
		o.Threads = runtime.GOMAXPROCS(0)
	}
	rng := rand.New(rand.NewPCG(o.Seed, 7))
	net := newFloatNet()
	for i := range net.w1 {
		net.w1[i] = float32(rng.Float64()*0.3 - 0.15)
	}
	for i := range net.w2 {
		net.w2[i] = float32(rng.Float64()*0.2 - 0.1)
	}
	grads := make([]*floatNet, o.Threads)
	gparams := make([][][]float32, o.Threads) // grads[t].params(), made once
	for i := range grads {
		grads[i] = newFloatNet()
		gparams[i] = grads[i].params()
	}
	var m, v [][]float32
	for _, p := range net.params() {
		m = append(m, make([]float32, len(p)))
		v = append(v, make([]float32, len(p)))
	}
	const beta1, beta2, eps = 0.9, 0.999, 1e-8
	step := 0
	order := make([]int, train.Len())
	for i := range order {
		order[i] = i
	}
	for epoch := 1; epoch <= o.Epochs && ctx.Err() == nil; epoch++ {
		// Step decay: the last fifth of the epochs at a tenth of the rate.
		lr := o.LR
		if epoch > o.Epochs*4/5 {
			lr /= 10
		} else if epoch > o.Epochs/2 {
			lr /= 3
		}
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		var epochLoss float64
		for lo := 0; lo < len(order) && ctx.Err() == nil; lo += o.BatchSize {
			batch := order[lo:min(lo+o.BatchSize, len(order))]
			var wg sync.WaitGroup
			losses := make([]float64, o.Threads)
			chunk := (len(batch) + o.Threads - 1) / o.Threads
			for t := range o.Threads {
				for _, p := range gparams[t] {
					clear(p)
				}
				a, b := min(t*chunk, len(batch)), min((t+1)*chunk, len(batch))
				wg.Add(1)
				go func() {
					defer wg.Done()
					losses[t] = net.batchGrad(train, batch[a:b], grads[t])
				}()
			}
			wg.Wait()
			for _, l := range losses {
				epochLoss += l
			}
			step++
			bc1 := 1 - math.Pow(beta1, float64(step))
			bc2 := 1 - math.Pow(beta2, float64(step))
			scale := float32(lr * math.Sqrt(bc2) / bc1)
			inv := 1 / float32(len(batch))
			for k, p := range net.params() {
				limit := float32(maxW1)
				if k >= 2 {
					limit = maxW2
				}
				for i := range p {
					var g float32
					for t := range o.Threads {
						g += gparams[t][k][i]
					}
					g *= inv
					m[k][i] = beta1*m[k][i] + (1-beta1)*g
					v[k][i] = beta2*v[k][i] + (1-beta2)*g*g
					p[i] -= scale * m[k][i] / (float32(math.Sqrt(float64(v[k][i]))) + eps)
					p[i] = min(max(p[i], -limit), limit)
				}
			}
		}
		if progress != nil {
			validErr := math.NaN()
			if valid != nil && valid.Len() > 0 {
				validErr = net.loss(valid, o.Threads)
			}
			progress(epoch, epochLoss/float64(train.Len()), validErr)
		}
	}
	return nnue.Quantize(net.w1, net.b1, net.w2, net.b2[0])
}
