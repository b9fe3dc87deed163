-- Undo (issue 14, "Correspondence play"): a seat may take back its last
-- posts of its own turn until a die is rolled or something hidden is
-- revealed. The posts taken back stay in the log (nothing revealed is
-- ever hidden again), marked with the seq of the undo post that took
-- them back; replays leave them out.
ALTER TABLE posts ADD COLUMN undone_by integer;
