"""Ray RLlib multi-seat self-play (``bean-env train rllib``): the env RLlib steps (``env``), the
action-masking PPO module (``module``) and the trainer (``trainer``). Importing this package imports no
part of ray; its modules need the ``ray`` extra.
"""
