package play

// queueReview queues the review of game id, owner's, which has just ended
// (package review, Config.Reviews). The host calls it under its lock: the
// reviewer takes only its queue's.
func (gs *Games) queueReview(id, owner string) {
	if gs.cfg.Reviews != nil {
		gs.cfg.Reviews.Finished(id, owner)
	}
}
