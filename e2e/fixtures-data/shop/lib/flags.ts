export const darkMode = process.env.NEXT_PUBLIC_FEATURE_DARK_MODE === 'true';

export const API_URL = 'https://shop.example/api';
