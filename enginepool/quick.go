package enginepool

import (
	"math"
	"time"
)

// The quick lane of the engine pool (pool's doc): which requests it
// serves, how a quick searcher that frees picks one, and each owner's use
// kept per lane.

// isShort reports whether a live request of budget cost may use the quick
// lane.
func (p *Pool) isShort(cost time.Duration) bool { return cost <= p.quickMax }

// laneUse is an owner's recent use of one lane's searchers.
type laneUse struct {
	used     float64 // seconds of finished searches, decayed to usedAt
	usedAt   time.Time
	reserved time.Duration // budgets of the owner's running searches there
}

// at returns the lane's recent use at now, in seconds, reservations
// included.
func (u *laneUse) at(now time.Time) float64 {
	v := u.used
	if v > 0 {
		if dt := now.Sub(u.usedAt); dt > 0 {
			v *= math.Exp2(-dt.Seconds() / poolHalfLife.Seconds())
		}
	}
	return v + u.reserved.Seconds()
}

// charge turns the reservation of a search of budget cost into what it
// took, used.
func (u *laneUse) charge(now time.Time, cost, used time.Duration) {
	u.used = u.at(now) - u.reserved.Seconds() + used.Seconds()
	u.usedAt = now
	u.reserved -= cost
}

// usage returns o's recent engine use on both lanes at now, in seconds:
// the quick lane's key.
func (o *poolOwner) usage(now time.Time) float64 {
	return o.regular.at(now) + o.quick.at(now)
}

// lane returns o's use of the lane e belongs to.
func (o *poolOwner) lane(e *pooled) *laneUse {
	if e.quick {
		return &o.quick
	}
	return &o.regular
}

// handOutQuickLocked gives the free quick searcher e to the first short
// request of the owner with the smallest quick key (total usage + the
// request's budget; ties to the request that came first), or leaves it
// idle: it never serves a long or a background request.
func (p *Pool) handOutQuickLocked(e *pooled, now time.Time) {
	var best *poolWaiter
	var bestAt int
	var bestKey float64
	for _, x := range p.owners {
		if x.shorts == 0 {
			continue
		}
		for i, w := range x.queue {
			if !w.short {
				continue
			}
			k := x.usage(now) + w.cost.Seconds()
			if best == nil || k < bestKey || (k == bestKey && w.seq < best.seq) {
				best, bestAt, bestKey = w, i, k
			}
			break
		}
	}
	if best == nil {
		p.quickIdle = append(p.quickIdle, e)
		return
	}
	p.assignLocked(best, bestAt, e)
}

// Quick reports whether req is a short request, one the quick lane
// serves: engine work spread over other machines (package enginejobs)
// keeps short requests apart from long ones by the same rule.
func Quick(req SearchRequest) bool { return requestCost(req) <= poolQuickMax }

// QuickSearchers returns how many searchers the quick lane has.
func (p *Pool) QuickSearchers() int { return len(p.all) - p.Searchers() }
