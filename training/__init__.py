"""Self-play training for bean_env: batched PPO (``batched_ppo.py``), MaskablePPO (``selfplay.py``) and
Ray RLlib (the ``rllib`` package).

Needs the ``train`` extra (torch, stable-baselines3, sb3-contrib) or the ``ray`` extra for RLlib.
Trained policies are exported as plain-tensor policy files that the ``ppo`` agent loads
(``agents/ppo.py``).
"""
