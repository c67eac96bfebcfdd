"""Self-play training for bean_env: MaskablePPO (``selfplay.py``) and Ray RLlib (``rllib_selfplay.py``).

Needs the ``train`` extra (torch, stable-baselines3, sb3-contrib) or the ``ray`` extra for RLlib.
Trained policies are exported as plain-tensor policy files that the ``ppo`` agent loads
(``agents/ppo.py``).
"""
