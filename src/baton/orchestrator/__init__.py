"""The walks of a question (ask, analyze), the run state machine, store, resume and replay."""
