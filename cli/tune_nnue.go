package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"knightwatch/tune"
)

// runTuneNNUE trains the neural network evaluation from labelled positions
// (the files tune gen and tune pgn write) and writes it for the EvalFile
// option.
func runTuneNNUE(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("tune", "nnue --in FILE[,FILE...] --out FILE [--lambda X] [--epochs N]", stderr)
	in := fs.String("in", "", "training positions (FEN;result[;score] lines), comma-separated files")
	out := fs.String("out", "", "network file to write")
	lambda := fs.Float64("lambda", 0.5, "weight of the game result in each label; the rest is the position's search score, when it has one")
	epochs := fs.Int("epochs", 20, "passes over the training positions")
	lr := fs.Float64("lr", 0.001, "Adam step size")
	batch := fs.Int("batch", 16384, "positions per gradient step")
	validShare := fs.Float64("valid", 0.02, "share of the positions held out to measure the error on positions not learned from")
	seed := fs.Uint64("seed", 1, "random seed (initial weights, order, held-out positions)")
	limit := fs.Duration("time", 2*time.Hour, "stop after this long, keeping the network so far")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *in == "" || *out == "" {
		return fmt.Errorf("--in and --out are required")
	}
	if *lambda < 0 || *lambda > 1 || *validShare < 0 || *validShare >= 1 || *epochs < 1 || *batch < 1 {
		return fmt.Errorf("--lambda must be from 0 to 1, --valid from 0 to below 1, --epochs and --batch positive")
	}
	data, err := tune.ReadTrainingFiles(strings.Split(*in, ","))
	if err != nil {
		return err
	}
	train, valid, scored, err := tune.NetworkSets(data, *lambda, *validShare)
	if err != nil {
		return err // ReadTrainingData has checked every FEN
	}
	fmt.Fprintf(stderr, "%d positions (%d with a search score): %d to train on, %d held out\n", len(data), scored, train.Len(), valid.Len())
	ctx, cancel := context.WithTimeout(context.Background(), *limit)
	defer cancel()
	start := time.Now()
	net, err := tune.Train(ctx, train, valid, tune.TrainOptions{Epochs: *epochs, BatchSize: *batch, LR: *lr, Seed: *seed},
		func(epoch int, trainErr, validErr float64) {
			fmt.Fprintf(stderr, "epoch %d: error %.6f, held out %.6f (%s)\n", epoch, trainErr, validErr, time.Since(start).Round(time.Second))
		})
	if err != nil {
		return err
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	if err := net.Write(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s: %d positions, %d epochs\n", *out, train.Len(), *epochs)
	return nil
}
